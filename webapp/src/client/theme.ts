/**
 * The colour theme: the system's (the default), light or dark, chosen in the
 * header's "Theme" menu and kept in this browser. Every page loads this as a
 * blocking script in <head>, before anything paints, so a chosen theme never
 * flashes the other one first; it imports nothing, so it runs as a classic
 * script. Without scripts the menu stays hidden and the system decides.
 *
 * The stylesheet does the rest: `data-theme` on <html> sets `color-scheme`,
 * which every colour follows (`light-dark()` in style.css); the class
 * `dark-mode` says the same to Swagger UI on /docs.
 */

// One function scope: a classic script's top-level names would be the page's globals.
(() => {
  const storageKey = "linkgeo.theme";
  const themes = ["system", "light", "dark"] as const;
  type Theme = (typeof themes)[number];

  const isTheme = (value: unknown): value is Theme => themes.includes(value as Theme);

  /** What this browser chose; what is stored is read as hostile, and storage may be refused. */
  function chosenTheme(): Theme {
    try {
      const stored = localStorage.getItem(storageKey);
      return isTheme(stored) ? stored : "system";
    } catch {
      return "system";
    }
  }

  function keep(theme: Theme): void {
    try {
      if (theme === "system") localStorage.removeItem(storageKey);
      else localStorage.setItem(storageKey, theme);
    } catch {
      // Storage refused (a private window's quota): the choice lasts as long as the page.
    }
  }

  const systemDark = matchMedia("(prefers-color-scheme: dark)");

  function apply(theme: Theme): void {
    const root = document.documentElement;
    if (theme === "system") delete root.dataset.theme;
    else root.dataset.theme = theme;
    // Swagger UI's stylesheet (/docs) follows this class rather than color-scheme.
    root.classList.toggle("dark-mode", theme === "dark" || (theme === "system" && systemDark.matches));
  }

  apply(chosenTheme());
  systemDark.addEventListener("change", () => apply(chosenTheme()));

  document.addEventListener("DOMContentLoaded", () => {
    const menu = document.getElementById("theme-choice");
    if (!(menu instanceof HTMLSelectElement)) return;
    menu.value = chosenTheme();
    menu.closest("[hidden]")?.removeAttribute("hidden");
    menu.addEventListener("change", () => {
      const theme = isTheme(menu.value) ? menu.value : "system";
      keep(theme);
      apply(theme);
    });
    // Chosen in another tab: every open page follows.
    window.addEventListener("storage", (event) => {
      if (event.key !== storageKey && event.key !== null) return;
      menu.value = chosenTheme();
      apply(chosenTheme());
    });
  });
})();

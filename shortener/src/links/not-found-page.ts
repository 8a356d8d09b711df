/** What a person who followed a dead short link sees. */
export function notFoundPage(code: string): { status: 404; headers: Record<string, string>; body: string } {
  const safe = code.replace(/[^A-Za-z0-9_-]/g, "");
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.5rem}</style></head>
<body><h1>This short link does not exist</h1><p>There is no link called <code>${safe}</code>. It may have been deleted, or the address was mistyped.</p></body>
</html>`;
  return { status: 404, headers: { "content-type": "text/html; charset=utf-8" }, body: html };
}

/** A browser (its Accept names HTML) gets the page; anything else the JSON error. */
export function prefersHtml(accept: string | null): boolean {
  return accept?.includes("text/html") ?? false;
}

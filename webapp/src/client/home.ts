/**
 * The home page (pages/home-page.ts): the shorten form, the result of the
 * last link made, and the latest links this browser keeps.
 */
import { mount as mountLatestLinks } from "../components/latest-links/script.ts";
import { mount as mountShortenForm } from "../components/shorten-form/script.ts";
import { mount as mountShortenResult } from "../components/shorten-result/script.ts";
import { rootOf } from "./lib/find-parts.ts";
import { typingPauseMs } from "./lib/typing-pause.ts";

const result = mountShortenResult(rootOf("result"));
const latest = mountLatestLinks(rootOf("your-links"));
mountShortenForm(rootOf("shorten"), {
  typingPauseMs,
  attempting: () => result.hide(),
  created(link, addedScheme) {
    result.show(link, addedScheme);
    void latest.refresh();
  },
});
void latest.refresh();

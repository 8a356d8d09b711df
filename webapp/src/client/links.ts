/**
 * The Your links page (pages/your-links-page.ts): the list of this browser's
 * links, and the forms that bring more; what they bring is listed at once.
 */
import { mount as mountBringLinks } from "../components/bring-links/script.ts";
import { mount as mountYourLinks } from "../components/your-links/script.ts";
import { rootOf } from "./lib/find-parts.ts";

const list = mountYourLinks(rootOf("your-links"));
mountBringLinks(rootOf("bring-links"), { added: () => list.refresh() });
void list.refresh();

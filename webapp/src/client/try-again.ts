// The "not available right now" page (components/try-again).
import { mount } from "../components/try-again/script.ts";
import { rootOf } from "./lib/find-parts.ts";

mount(rootOf("try-again"), { reload: () => location.reload() });

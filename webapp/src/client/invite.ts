/** The invite page's script: the page is one component (components/invite-accept). */
import { mount } from "../components/invite-accept/script.ts";
import { rootOf } from "./lib/find-parts.ts";

mount(rootOf("invite-accept"));

/** The admin page's script: the page is one component (components/admin). */
import { mount } from "../components/admin/script.ts";
import { rootOf } from "./lib/find-parts.ts";

mount(rootOf("admin"));

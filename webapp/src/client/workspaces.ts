/** The workspaces page's script: the page is one component (components/workspaces). */
import { mount } from "../components/workspaces/script.ts";
import { rootOf } from "./lib/find-parts.ts";

mount(rootOf("workspaces"));

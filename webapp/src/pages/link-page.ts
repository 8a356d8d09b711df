import { linkDashboardView } from "../components/link-dashboard/view.ts";
import type { Page } from "../page-shell.ts";
import type { WebAssets } from "../web-assets.ts";

/** One link's page, `/app/links/<code>`: the link-dashboard component, which client/link.ts mounts. */
export function linkPage(assets: WebAssets): Page {
  return {
    title: "Link",
    current: "links",
    script: "link",
    main: linkDashboardView(assets.staticUrl("world-map.svg")),
  };
}

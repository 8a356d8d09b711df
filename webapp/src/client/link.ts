/** A link's page, `/app/links/<code>`: the link-dashboard component, for the code in the page's address. */
import { mountLinkDashboard } from "../components/link-dashboard/script.ts";
import { rootOf } from "./lib/find-parts.ts";
import { codeInAddress } from "./lib/link-record.ts";

mountLinkDashboard(rootOf("link-page"), codeInAddress(location.pathname));

/** A link's page, `/app/links/<code>[?domain=<host>]`: the link-dashboard component, for the link the page's address names. */
import { mountLinkDashboard } from "../components/link-dashboard/script.ts";
import { rootOf } from "./lib/find-parts.ts";
import { codeInAddress } from "./lib/link-record.ts";

mountLinkDashboard(rootOf("link-page"), codeInAddress(location.pathname), new URLSearchParams(location.search).get("domain") || undefined);

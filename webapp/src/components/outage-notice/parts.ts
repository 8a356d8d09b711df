import { defineParts } from "../../kit/parts.ts";

/** The outage notice: its message, hidden while the service answers, and the button that asks again at once. */
export const outageParts = defineParts({ outageMessage: "div", outageTryNow: "button" });

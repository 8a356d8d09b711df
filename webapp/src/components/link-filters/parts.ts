import { defineParts } from "../../kit/parts.ts";

export const linkFiltersParts = defineParts({ search: "input", tag: "input", state: "select", sort: "select", pageSize: "select" });

import { defineParts } from "../../kit/parts.ts";

/** The alias field's parts its script works with (view.ts marks them; the error is the field's .field-error). */
export const aliasFieldParts = defineParts({ input: "input", status: "p", suggestions: "p" });

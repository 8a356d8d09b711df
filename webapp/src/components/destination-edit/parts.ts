import { defineParts } from "../../kit/parts.ts";

export const destinationEditParts = defineParts({ editCode: "code", editInput: "input", editSave: "button", editCancel: "button" });

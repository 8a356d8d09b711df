import { defineParts } from "../../kit/parts.ts";

export const confirmQuestionParts = defineParts({ question: "p", questionError: "p", questionYes: "button", questionNo: "button" });

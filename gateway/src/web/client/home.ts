import "./lib/dom.ts";

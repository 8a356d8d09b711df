import { setDefaultTimeout } from "bun:test";

// Loaded before every suite by bunfig.toml's [test] preload.
setDefaultTimeout(30_000);

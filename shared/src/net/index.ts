export * from "./client-address.ts";
export * from "./host-header.ts";
export * from "./ip-address.ts";
export * from "./ip-range.ts";
export * from "./special-addresses.ts";

/**
 * How often an open, shown link page asks whether its count moved: one small
 * public read. Its own module (no DOM in it), so the browser suites can jump
 * a page's clock by exactly this much.
 */
export const liveUpdateMs = 5_000;

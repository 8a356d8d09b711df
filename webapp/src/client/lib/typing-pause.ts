/**
 * How long typing must pause before a page asks the API about what was
 * typed (the admin's search and tag filter, the home page's alias check):
 * one request per pause, not one per key. Its own module (no DOM in it), so
 * the browser suites can jump a page's clock by exactly this much.
 */
export const typingPauseMs = 300;

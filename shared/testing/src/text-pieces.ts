/** `text` in pieces cut at `cuts` (indexes into the string: a cut may fall inside a line, a quote or a surrogate pair), as a stream hands text over. */
export async function* piecesOf(text: string, cuts: readonly number[] = []): AsyncGenerator<string> {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield text.slice(from, cut);
    from = cut;
  }
  yield text.slice(from);
}

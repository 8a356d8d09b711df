import { api, type Credential } from "./api.ts";
import { h } from "./dom.ts";

/**
 * Downloads the API's answer at `path` as a file named `filename`, fetched
 * with `credential`: a plain link could not carry a manage token.
 */
export async function downloadWithCredential(path: string, credential: Credential, filename: string): Promise<void> {
  const file = await api<Blob>(path, { credential, as: "blob" });
  const url = URL.createObjectURL(file);
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

import { docsRoutes, type DocsPageContent } from "@linkgeo/shared";
import { mergedTitle } from "./merge-specs.ts";
import { MergedSpecSource, type MergedSpecOptions } from "./merged-spec-source.ts";

/** The gateway's /docs: the shared API page, on the merged spec of the gateway and both services, inside `page` (the web app's). */
export function mergedDocs(options: MergedSpecOptions, page?: (content: DocsPageContent) => Response) {
  const spec = new MergedSpecSource(options);
  return docsRoutes({ title: mergedTitle, spec: () => spec.current(), page });
}

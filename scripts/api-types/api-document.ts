/**
 * The API as the browser meets it: the document the gateway serves at
 * /docs/json (its own routes, then the shortener's and the geocoder's,
 * merged by mergeSpecs), made in this process from the services' real apps.
 * The apps are built on in-memory stores as their tests build them: a
 * service's document depends on its routes only, never on its data, so no
 * database, Redis or provider is needed.
 */
import { startTestGeocoder } from "../../geocoder/test/support/test-geocoder.ts";
import { asOpenApiDocument, gatewayOwnSpec, mergeSpecs, type OpenApiDocument } from "../../gateway/src/docs/index.ts";
import { startTestShortener } from "../../shortener/test/support/test-shortener.ts";

export async function apiDocument(): Promise<OpenApiDocument> {
  await using shortener = await startTestShortener();
  await using geocoder = startTestGeocoder({ providers: {} });
  try {
    const specOf = async (app: { handle(request: Request): Promise<Response> }, name: string) => {
      const response = await app.handle(new Request("http://localhost/docs/json"));
      const spec = asOpenApiDocument(await response.json());
      if (!response.ok || !spec) throw new Error(`the ${name} answered /docs/json with ${response.status} and no OpenAPI document`);
      return spec;
    };
    const merged = mergeSpecs(gatewayOwnSpec(), [
      { name: "shortener", spec: await specOf(shortener.app, "shortener") },
      { name: "geocoder", spec: await specOf(geocoder.app, "geocoder") },
    ]);
    return merged;
  } finally {
    geocoder.l2Database.close();
  }
}

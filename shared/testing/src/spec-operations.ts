const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation an OpenAPI document describes, as "GET /path", sorted: what its API page should list. */
export function specOperations(spec: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(spec.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => methods.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import { peopleOnly, peopleOr } from "../auth/callers.ts";
import type { CredentialResolver } from "../auth/credential-resolver.ts";
import { changeSecurity, readSecurity } from "../auth/security-schemes.ts";
import { refuseUnknownFields } from "../http/unknown-fields.ts";
import { workspaceRoles } from "./workspace.ts";
import { workspaceNameMaxLength, type SeenWorkspace, type Workspaces } from "./workspaces.ts";

const tags = ["people"];
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

const NewWorkspaceBody = t.Object(
  { name: t.Unknown({ description: `1 to ${workspaceNameMaxLength} characters once trimmed, no control characters`, examples: ["Marketing"] }) },
  { additionalProperties: false },
);

const WorkspaceView = t.Object(
  {
    id: t.Integer({ examples: [1] }),
    name: t.String({ examples: ["Marketing"] }),
    role: t.Union([t.UnionEnum([...workspaceRoles]), t.Null()], { description: "The caller's role in it; null for an admin, above every workspace" }),
    created_at: t.String({ format: "date-time" }),
  },
  { title: "Workspace" },
);

const viewOf = (workspace: SeenWorkspace) => ({
  id: workspace.id,
  name: workspace.name,
  role: workspace.role,
  created_at: workspace.createdAt.toISOString(),
});

/** `POST /workspaces`: a person makes one and owns it; `GET /workspaces`: the caller's (docs/people.md). */
export function workspaceRoutes({ workspaces, credentials }: { workspaces: Workspaces; credentials: CredentialResolver }) {
  return new Elysia({ prefix: "/workspaces" })
    .post(
      "/",
      async ({ body, request, server, set }) => {
        const made = await workspaces.create(body, await credentials.resolve(request, server, peopleOnly));
        set.status = 201;
        return viewOf(made);
      },
      {
        body: NewWorkspaceBody,
        transform: refuseUnknownFields(NewWorkspaceBody),
        response: { 201: WorkspaceView, ...errors(400, 401, 403, 413, 415) },
        detail: { summary: "Make a workspace: the person signed in is its owner", tags, security: changeSecurity },
      },
    )
    .get(
      "/",
      async ({ request, server }) => ({
        results: (await workspaces.list(await credentials.resolve(request, server, peopleOr("admin")))).map(viewOf),
      }),
      {
        response: { 200: t.Object({ results: t.Array(WorkspaceView) }), ...errors(401, 403) },
        detail: { summary: "The workspaces of the person signed in, with their role; every one for an admin", tags, security: readSecurity },
      },
    );
}

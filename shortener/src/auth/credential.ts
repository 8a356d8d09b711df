/** Who is asking to change a link: an admin (token or session), or the holder of its manage token. */
export type Credential = { kind: "admin"; username: string } | { kind: "manage-token"; token: string };

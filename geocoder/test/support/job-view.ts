/** A job as the jobs' routes answer it (either kind): what the API tests read of a creation, a progress or a cancel. */
export interface JobView {
  id: string;
  status: "running" | "done" | "cancelled";
  total: number;
  done: number;
  failed: number;
  platform: string | null;
  language: string | null;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
}

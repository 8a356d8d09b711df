/**
 * The playground's "Many points at once": pasted lines or a CSV file
 * (lib/many-points.ts), asked a batch at a time with a progress bar, the
 * first answers in a table, every point as a dot on the map, and the CSV and
 * GeoJSON of all of them to download.
 */
import { ApiError } from "../../client/lib/api.ts";
import { call, type RequestBody } from "../../client/lib/api-call.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, plural } from "../../client/lib/format.ts";
import { geocodeErrorWords } from "../../client/lib/geocode-words.ts";
import {
  firstFeatureByRow,
  maxPagePoints,
  pointError,
  pointsFromCsv,
  pointsFromLines,
  pointsPerBatch,
  resultsCsv,
  type PointFeature,
  type PointsInput,
} from "../../client/lib/many-points.ts";
import { OfferedFiles } from "../../client/lib/offered-files.ts";
import type { WorldMapView } from "../geocoder-map/script.ts";
import { manyPointsParts } from "./parts.ts";

export interface ManyPointsDeps {
  /** The page's map, where every point answered is a dot. */
  map: WorldMapView;
  /** The provider and language chosen in the form above ("": the default chain, no language). */
  choice(): { platform: string; language: string };
}

type Parts = FoundParts<typeof manyPointsParts.spec>;

/** Rows shown in the page's table; the downloads have them all. */
const rowsShown = 50;

export function mount(root: HTMLElement, deps: ManyPointsDeps): void {
  const parts = findParts(root, manyPointsParts);
  const files = new OfferedFiles();
  parts.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run(parts, deps, files);
  });
  // Offered only now that its submit stays in this script.
  show(parts.form, true);
}

async function run(parts: Parts, deps: ManyPointsDeps, files: OfferedFiles): Promise<void> {
  const input = await readPoints(parts);
  if (!input) return;
  parts.button.disabled = true;
  files.clear();
  for (const hidden of [parts.csv, parts.geoJson, parts.table]) show(hidden, false);
  show(parts.result, true);
  fill(
    parts.problems,
    input.problems.slice(0, 20).map((problem) => h("li", {}, `Left out: ${problem}`)),
  );
  parts.progress.max = input.rows.length;
  parts.progress.value = 0;
  const { features, stopped } = await lookUpAll(parts, deps, input);
  parts.button.disabled = false;
  if (!stopped || features.length > 0) showAnswers(parts, deps, files, input, features);
}

/** The points the form gives, or null after saying on the field why there are none to ask for. */
async function readPoints(parts: Parts): Promise<PointsInput | null> {
  const { file: fileInput, lines } = parts;
  showFieldError(fileInput, null);
  showFieldError(lines, null);
  const file = fileInput.files?.[0];
  const source = file ? fileInput : lines;
  let input: PointsInput;
  if (file) {
    // A file ten times the points allowed, at a generous 100 bytes a row, is no file for this page.
    if (file.size > maxPagePoints * 1_000)
      return refuse(fileInput, `This file is too big for the page (at most ${formatCount(maxPagePoints)} points): use bun run geocode.`);
    const read = pointsFromCsv(await file.text());
    if (typeof read === "string") return refuse(fileInput, read);
    input = read;
  } else {
    if (lines.value.trim() === "") return refuse(lines, "Paste points, one a line, or choose a CSV file.");
    input = pointsFromLines(lines.value);
  }
  if (input.rows.length === 0) return refuse(source, "No point to look up: every line was refused (see below).");
  if (input.rows.length > maxPagePoints) {
    return refuse(source, `${formatCount(input.rows.length)} points: this page takes ${formatCount(maxPagePoints)} at most. Use bun run geocode for more.`);
  }
  return input;
}

function refuse(input: HTMLInputElement | HTMLTextAreaElement, message: string): null {
  showFieldError(input, message);
  input.focus();
  return null;
}

/** Asks for every point, a batch at a time; `stopped` when a batch failed, with the features of the batches before it. */
async function lookUpAll(parts: Parts, deps: ManyPointsDeps, input: PointsInput): Promise<{ features: PointFeature[]; stopped: boolean }> {
  const features: PointFeature[] = [];
  const { platform, language } = deps.choice();
  try {
    for (let first = 0; first < input.rows.length; first += pointsPerBatch) {
      parts.status.textContent = `Looking up ${formatCount(first)} of ${plural(input.rows.length, "point")}…`;
      const batch = input.rows.slice(first, first + pointsPerBatch);
      const body: RequestBody<"POST /reverse-geocode/batch"> = {
        points: batch.map((row, i) => ({ id: first + i, latitude: row.latitude, longitude: row.longitude })),
        ...(platform ? { platform } : {}),
        ...(language ? { language } : {}),
      };
      const answer = await call("POST /reverse-geocode/batch", { query: { format: "geojson" }, body });
      if (!("features" in answer) || !Array.isArray(answer.features)) throw new TypeError("the batch was not answered as GeoJSON");
      features.push(...answer.features);
      parts.progress.value = first + batch.length;
    }
    return { features, stopped: false };
  } catch (error) {
    const words = geocodeErrorWords(error instanceof ApiError ? error : new ApiError(0, "unknown", "Something went wrong in this page."));
    parts.status.textContent = `Stopped after ${plural(Number(parts.progress.value), "point")}: ${words.message}`;
    return { features, stopped: true };
  }
}

function showAnswers(parts: Parts, deps: ManyPointsDeps, files: OfferedFiles, input: PointsInput, features: PointFeature[]): void {
  const firsts = [...firstFeatureByRow(features)];
  const answered = firsts.filter(([, feature]) => typeof feature.properties.formatted_address === "string").length;
  const failed = firsts.filter(([, feature]) => pointError(feature.properties)).length;
  if (Number(parts.progress.value) === input.rows.length) {
    parts.status.textContent = `${plural(input.rows.length, "point")} looked up: ${formatCount(answered)} with an address, ${formatCount(failed)} with an error.`;
  }
  deps.map.showPoints(firsts.flatMap(([, { geometry }]) => (geometry ? [{ longitude: geometry.coordinates[0], latitude: geometry.coordinates[1] }] : [])));
  fill(parts.rows, answerRows(input, new Map(firsts)));
  show(parts.table, true);
  files.offer(parts.csv, new Blob([resultsCsv(input, features)], { type: "text/csv" }), "addresses.csv");
  files.offer(parts.geoJson, new Blob([JSON.stringify({ type: "FeatureCollection", features })], { type: "application/geo+json" }), "addresses.geojson");
}

/** The table's rows: the first `rowsShown` points with their first address (or error) and provider. */
function answerRows(input: PointsInput, firsts: ReadonlyMap<number, PointFeature>): HTMLTableRowElement[] {
  return input.rows.slice(0, rowsShown).map((row, i) => {
    const properties = firsts.get(i)?.properties;
    const error = properties && pointError(properties);
    const address = typeof properties?.formatted_address === "string" ? properties.formatted_address : error ? error.message : "—";
    return h(
      "tr",
      {},
      h("td", {}, String(i + 1)),
      h("td", { class: "mono" }, `${row.latitude}, ${row.longitude}`),
      h("td", {}, address),
      h("td", {}, typeof properties?.provider === "string" ? properties.provider : "—"),
    );
  });
}

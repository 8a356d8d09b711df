/**
 * The playground's "Many points at once": pasted lines or a CSV file
 * (lib/many-points.ts), asked a batch at a time with a progress bar, the
 * first answers in a table, every point as a dot on the map, and the CSV and
 * GeoJSON of all of them to download.
 */
import { api, ApiError } from "./api.ts";
import { byId, fieldError, fill, h, show } from "./dom.ts";
import { formatCount, plural } from "./format.ts";
import { geocodeErrorWords } from "./geocode-words.ts";
import {
  firstFeatureByRow,
  maxPagePoints,
  pointsFromCsv,
  pointsFromLines,
  pointsPerBatch,
  resultsCsv,
  type PointFeature,
  type PointsInput,
} from "./many-points.ts";
import { OfferedFiles } from "./offered-files.ts";
import type { WorldMapView } from "./world-map-view.ts";

export interface ManyPointsHost {
  map(): WorldMapView | null;
  /** The provider and language chosen in the form above ("": the default chain, no language). */
  platform(): string;
  language(): string;
}

/** Rows shown in the page's table; the downloads have them all. */
const rowsShown = 50;

export function manyPointsPanel(host: ManyPointsHost): void {
  const form = byId<HTMLFormElement>("many-form");
  const linesInput = byId<HTMLTextAreaElement>("many-points");
  const fileInput = byId<HTMLInputElement>("many-file");
  const button = byId<HTMLButtonElement>("many-button");
  const resultBox = byId("many-result");
  const progress = byId<HTMLProgressElement>("many-progress");
  const status = byId("many-status");
  const problems = byId("many-problems");
  const csvLink = byId<HTMLAnchorElement>("many-csv");
  const geoJsonLink = byId<HTMLAnchorElement>("many-geojson");
  const table = byId("many-table");
  const files = new OfferedFiles();

  async function read(): Promise<PointsInput | null> {
    fieldError(fileInput, null);
    fieldError(linesInput, null);
    const file = fileInput.files?.[0];
    if (file) {
      // A file ten times the points allowed, at a generous 100 bytes a row, is no file for this page.
      if (file.size > maxPagePoints * 1_000)
        return refuse(fileInput, `This file is too big for the page (at most ${formatCount(maxPagePoints)} points): use bun run geocode.`);
      const read = pointsFromCsv(await file.text());
      return typeof read === "string" ? refuse(fileInput, read) : read;
    }
    if (linesInput.value.trim() === "") return refuse(linesInput, "Paste points, one a line, or choose a CSV file.");
    return pointsFromLines(linesInput.value);
  }

  function refuse(input: HTMLInputElement | HTMLTextAreaElement, message: string): null {
    fieldError(input, message);
    input.focus();
    return null;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = await read();
    if (!input) return;
    if (input.rows.length === 0) return void refuse(fileInput.files?.[0] ? fileInput : linesInput, "No point to look up: every line was refused (see below).");
    if (input.rows.length > maxPagePoints) {
      return void refuse(
        fileInput.files?.[0] ? fileInput : linesInput,
        `${formatCount(input.rows.length)} points: this page takes ${formatCount(maxPagePoints)} at most. Use bun run geocode for more.`,
      );
    }
    button.disabled = true;
    files.clear();
    show(csvLink, false);
    show(geoJsonLink, false);
    show(table, false);
    show(resultBox, true);
    fill(
      problems,
      input.problems.slice(0, 20).map((problem) => h("li", {}, `Left out: ${problem}`)),
    );
    progress.max = input.rows.length;
    progress.value = 0;
    const features: PointFeature[] = [];
    try {
      for (let first = 0; first < input.rows.length; first += pointsPerBatch) {
        status.textContent = `Looking up ${formatCount(first)} of ${plural(input.rows.length, "point")}…`;
        const batch = input.rows.slice(first, first + pointsPerBatch);
        const body = {
          points: batch.map((row, i) => ({ id: first + i, latitude: row.latitude, longitude: row.longitude })),
          ...(host.platform() ? { platform: host.platform() } : {}),
          ...(host.language() ? { language: host.language() } : {}),
        };
        const answer = await api<{ features: PointFeature[] }>("/reverse-geocode/batch?format=geojson", { method: "POST", body });
        features.push(...answer.features);
        progress.value = first + batch.length;
      }
    } catch (error) {
      const words = geocodeErrorWords(error instanceof ApiError ? error : new ApiError(0, "unknown", "Something went wrong in this page."));
      status.textContent = `Stopped after ${plural(Number(progress.value), "point")}: ${words.message}`;
      button.disabled = false;
      if (features.length === 0) return;
    }
    button.disabled = false;
    showAnswers(input, features);
  });

  function showAnswers(input: PointsInput, features: PointFeature[]): void {
    const firsts = firstFeatureByRow(features);
    const answered = [...firsts.values()].filter((feature) => typeof feature.properties.formatted_address === "string").length;
    const failed = [...firsts.values()].filter((feature) => feature.properties.error).length;
    if (Number(progress.value) === input.rows.length) {
      status.textContent = `${plural(input.rows.length, "point")} looked up: ${formatCount(answered)} with an address, ${formatCount(failed)} with an error.`;
    }
    host
      .map()
      ?.showPoints(
        [...firsts.values()].flatMap((feature) =>
          feature.geometry ? [{ longitude: feature.geometry.coordinates[0], latitude: feature.geometry.coordinates[1] }] : [],
        ),
      );
    fill(
      byId("many-rows"),
      input.rows.slice(0, rowsShown).map((row, i) => {
        const properties = firsts.get(i)?.properties;
        const address = typeof properties?.formatted_address === "string" ? properties.formatted_address : properties?.error ? properties.error.message : "—";
        return h(
          "tr",
          {},
          h("td", {}, String(i + 1)),
          h("td", { class: "mono" }, `${row.latitude}, ${row.longitude}`),
          h("td", {}, address),
          h("td", {}, typeof properties?.provider === "string" ? properties.provider : "—"),
        );
      }),
    );
    show(table, true);
    files.offer(csvLink, new Blob([resultsCsv(input, features)], { type: "text/csv" }), "addresses.csv");
    files.offer(geoJsonLink, new Blob([JSON.stringify({ type: "FeatureCollection", features })], { type: "application/geo+json" }), "addresses.geojson");
  }

  // Offered only now that its submit stays in this script.
  show(form, true);
}

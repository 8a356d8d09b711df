/**
 * The option fields (components/option-fields) for a page script that
 * finds them by their prefix, as the home page's does ("new"): the
 * component mounted on its root, `<prefix>-option-fields`.
 */
import { mountOptionFields, type OptionFields } from "../../components/option-fields/script.ts";
import { rootOf } from "./find-parts.ts";

export type { OptionFields };

export function optionFields(prefix: string): OptionFields {
  return mountOptionFields(rootOf(`${prefix}-option-fields`));
}

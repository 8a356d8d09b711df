/** A link's options as form fields: the option-fields component's view, under the name the home page imports. */
export { optionFieldsView as linkOptionFields, type OptionValues } from "../components/option-fields/view.ts";

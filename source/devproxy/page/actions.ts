/** Acting on the page the way a person would, for reproducing a bug from exec: click, type, focus, select. */
import {describe, withElement} from './element.js';
import {failure, primitive} from './primitive.js';

function setValue(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  // Frameworks (React) track the value through the prototype's setter; an assignment on the element itself is missed.
  const proto = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(element, value);
  element.dispatchEvent(new Event('input', {bubbles: true}));
  element.dispatchEvent(new Event('change', {bubbles: true}));
}

export const actions = {
  click: primitive('selector', 'Clicks the first match (scrolled into view first) and describes it', (selector: unknown) =>
    withElement(selector, (element) => {
      element.scrollIntoView({block: 'center'});
      (element as HTMLElement).click();
      return {clicked: describe(element)};
    }),
  ),
  fill: primitive('selector, value', 'Sets the value of an input or textarea as typing would (input and change events fire)', (selector: unknown, value: unknown) =>
    withElement(selector, (element) => {
      if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return failure('fill needs an input or textarea');
      setValue(element, String(value ?? ''));
      return {value: element.value, valid: element.validity.valid, element: describe(element)};
    }),
  ),
  focus: primitive('selector', 'Focuses the first match and answers whether focus landed on it', (selector: unknown) =>
    withElement(selector, (element) => {
      (element as HTMLElement).focus();
      return {focused: document.activeElement === element, element: describe(element)};
    }),
  ),
  selectOption: primitive('selector, value', 'Chooses the option with this value (or label) in a select, firing change', (selector: unknown, value: unknown) =>
    withElement(selector, (element) => {
      if (!(element instanceof HTMLSelectElement)) return failure('selectOption needs a select element');
      const option = Array.from(element.options).find((candidate) => candidate.value === value || candidate.label === value);
      if (!option)
        return failure(
          `no option ${JSON.stringify(value)}; options: ${Array.from(element.options, (candidate) => candidate.value)
            .slice(0, 20)
            .join(', ')}`,
        );
      element.value = option.value;
      element.dispatchEvent(new Event('input', {bubbles: true}));
      element.dispatchEvent(new Event('change', {bubbles: true}));
      return {value: element.value, label: option.label};
    }),
  ),
};

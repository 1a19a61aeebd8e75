/** CSS colours to sRGB and the WCAG 2 contrast ratio; the effective background an element's text sits on. */
import {round} from './element.js';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

let probe: CanvasRenderingContext2D | null | undefined;

/**
 * Any CSS colour the browser understands (names, hex, rgb, hsl, oklch, color()) as sRGB bytes: the
 * canvas converts it, so no colour grammar is rewritten here. Undefined for text that is not a colour.
 */
export function parseColor(text: string): Rgba | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  if (probe === undefined) {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    probe = canvas.getContext('2d', {willReadFrequently: true});
  }
  if (!probe) return undefined;
  if (!CSS.supports('color', text)) return undefined;
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000';
  probe.fillStyle = text;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  // The canvas stores premultiplied colour; undo it for translucent colours.
  return a === 0 ? {r: 0, g: 0, b: 0, a: 0} : {r: Math.round((r * 255) / a), g: Math.round((g * 255) / a), b: Math.round((b * 255) / a), a: round(a / 255)};
}

/** `top` painted over an opaque `bottom`. */
export function composite(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a;
  return {r: Math.round(top.r * a + bottom.r * (1 - a)), g: Math.round(top.g * a + bottom.g * (1 - a)), b: Math.round(top.b * a + bottom.b * (1 - a)), a: 1};
}

function luminance({r, g, b}: Rgba): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(foreground: Rgba, background: Rgba): number {
  const a = luminance(foreground);
  const b = luminance(background);
  return round((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
}

export function hex({r, g, b}: Rgba): string {
  return `#${[r, g, b].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

const WHITE: Rgba = {r: 255, g: 255, b: 255, a: 1};

/** The colour behind an element's text: its own and its ancestors' backgrounds layered, white beneath; notes a background image it cannot see through. */
export function effectiveBackground(element: Element): {color: Rgba; image: boolean} {
  const layers: Rgba[] = [];
  let image = false;
  for (let node: Element | null = element; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.backgroundImage !== 'none') image = true;
    const color = parseColor(style.backgroundColor);
    if (color && color.a > 0) {
      layers.push(color);
      if (color.a >= 1) break;
    }
  }
  let color = WHITE;
  for (let at = layers.length - 1; at >= 0; at--) color = layers[at].a >= 1 ? layers[at] : composite(layers[at], color);
  return {color, image};
}

export interface TextContrast {
  ratio: number;
  foreground: string;
  background: string;
  largeText: boolean;
  aa: boolean;
  aaa: boolean;
  required: number;
  backgroundImage: boolean;
}

/** WCAG 2 contrast of an element's text against what lies behind it. */
export function textContrast(element: Element): TextContrast | undefined {
  const style = getComputedStyle(element);
  const foreground = parseColor(style.color);
  if (!foreground) return undefined;
  const {color: background, image} = effectiveBackground(element);
  const seen = foreground.a < 1 ? composite(foreground, background) : foreground;
  const ratio = contrast(seen, background);
  const size = parseFloat(style.fontSize) || 16;
  const bold = parseInt(style.fontWeight, 10) >= 700;
  const largeText = size >= 24 || (bold && size >= 18.66);
  const required = largeText ? 3 : 4.5;
  return {ratio, foreground: hex(seen), background: hex(background), largeText, aa: ratio >= required, aaa: ratio >= (largeText ? 4.5 : 7), required, backgroundImage: image};
}

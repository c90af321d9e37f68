import type {CSSProperties} from 'react';

/** A box given as fractions of its container (0–1), placed over it with percentages. */
export interface FractionBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function boxStyle(box: FractionBox): CSSProperties {
  return {
    left: `${box.left * 100}%`,
    top: `${box.top * 100}%`,
    width: `${box.width * 100}%`,
    height: `${box.height * 100}%`,
  };
}

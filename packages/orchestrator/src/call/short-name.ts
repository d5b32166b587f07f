import { shortened } from '../output/text-bytes.js';

const MAX_SHOWN_NAME = 200;

/** A name as long as a model may send cut for messages and accounting. */
export function shortName(name: string): string {
  return shortened(name, MAX_SHOWN_NAME);
}

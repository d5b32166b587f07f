/** Does nothing (one shared function instead of a closure per call). */
export const NOOP = (): void => {};

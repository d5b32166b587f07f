/**
 * What every listener of a channel gets after the listening connection was lost and is back:
 * notifications sent meanwhile are gone, so whatever a listener keeps from them is to be read
 * again from the database.
 */
export const RESYNC_PAYLOAD = '{"resync":true}';

/** Whether a payload is {@link RESYNC_PAYLOAD}. */
export function isResync(payload: string): boolean {
  return payload === RESYNC_PAYLOAD;
}

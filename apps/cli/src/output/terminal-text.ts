// Server text shown on a terminal is made inert by core's helpers (terminal controls escaped).
export { terminalJson, terminalLine, terminalText } from '@toolplane/core';

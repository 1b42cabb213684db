import type { Side } from '../parse/wire-reader.js';

export type { Side };

export const opposite = (side: Side): Side => (side === 'A' ? 'B' : 'A');

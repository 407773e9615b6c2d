// Types of bin/search-format.mjs for the TypeScript side (electron/cli/commands/search.ts).
import type { SearchResponse } from '../shared/types/search';

export function formatResults(res: Pick<SearchResponse, 'results'>): string;
export function statusLine(res: Pick<SearchResponse, 'mode' | 'embedder' | 'tookMs' | 'backend'>, by?: string): string;
export function numberedLines(picked: readonly { line: number; text: string }[]): string[];

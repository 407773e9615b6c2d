/**
 * The one contract between the renderer (or any client) and the engine: every channel with
 * its request schema and response type, every event with its payload type.
 *
 * Each domain declares its channels in `shared/contract/<domain>.ts`; this file joins them.
 * Transports (Electron IPC, HTTP + SSE, in-process) and the engine's handler map are all
 * derived from `channels` and `events`: a channel name is written once, here.
 */
import type { z } from 'zod';
import { appChannels, appEvents } from './contract/app';
import { searchChannels, searchEvents } from './contract/search';
import { qmdChannels } from './contract/qmd';
import { sessionViewChannels } from './contract/session-view';
import { llmChannels, llmEvents } from './contract/llm';
import { llmLocalChannels } from './contract/llm-local';
import { chatChannels, chatEvents } from './contract/chat';
import { modelsChannels, modelsEvents } from './contract/models';
import { sessionsChannels, sessionsEvents } from './contract/sessions';
import { stateInfoChannels } from './contract/state-info';
import { memoryNotesChannels } from './contract/memory-notes';
import { sessionStoreEvents } from './contract/session-store';
import { transcriptEvents } from './contract/transcript';
import { doctorStreamEvents } from './contract/doctor-stream';
import { memoryOpenChannels } from './contract/memory-open';
import { tokensChannels } from './contract/tokens';
import { openclawChannels } from './contract/openclaw';
import { welcomeChannels, welcomeEvents } from './contract/welcome';
import { llmRecommendedChannels } from './contract/llm-recommended';
import { dreamingChannels } from './contract/dreaming';
import { auditChannels } from './contract/audit';
import { openclawRecallChannels } from './contract/openclaw-recall';
import type { ChannelDef, EventDef } from './contract/define';

export * from './contract/define';
export * from './contract/sessions';
export * from './contract/app';
export * from './contract/state-info';
export * from './contract/llm';
export * from './contract/chat';
export * from './contract/models';
export * from './contract/search';
export * from './contract/qmd';
export * from './contract/session-store';
export * from './contract/transcript';
export * from './contract/openclaw';
export * from './contract/welcome';

export const channels = {
  ...sessionsChannels,
  ...appChannels,
  ...modelsChannels,
  ...llmChannels,
  ...llmLocalChannels,
  ...memoryOpenChannels,
  ...chatChannels,
  ...searchChannels,
  ...qmdChannels,
  ...sessionViewChannels,
  ...stateInfoChannels,
  ...memoryNotesChannels,
  ...tokensChannels,
  ...openclawChannels,
  ...welcomeChannels,
  ...llmRecommendedChannels,
  ...dreamingChannels,
  ...auditChannels,
  ...openclawRecallChannels,
} satisfies Record<string, ChannelDef<z.ZodType, unknown>>;

export const events = {
  ...sessionsEvents,
  ...appEvents,
  ...modelsEvents,
  ...llmEvents,
  ...chatEvents,
  ...searchEvents,
  ...sessionStoreEvents,
  ...transcriptEvents,
  ...doctorStreamEvents,
  ...welcomeEvents,
} satisfies Record<string, EventDef<unknown>>;

export type Channels = typeof channels;
export type Channel = keyof Channels;
export type EventName = keyof typeof events;

/** What a caller passes (defaults may be omitted). */
export type RequestIn<C extends Channel> = z.input<Channels[C]['request']>;
/** What a handler receives, after validation. */
export type RequestOut<C extends Channel> = z.output<Channels[C]['request']>;
export type ResponseOf<C extends Channel> = Channels[C]['response'];
export type EventPayload<E extends EventName> = (typeof events)[E]['payload'];

export const channelNames = Object.keys(channels) as Channel[];

export function isChannel(name: string): name is Channel {
  return Object.prototype.hasOwnProperty.call(channels, name);
}
export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}

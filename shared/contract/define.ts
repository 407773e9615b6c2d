/**
 * Helpers to declare channels and events once. A channel pairs a zod request schema (the
 * dispatcher validates with it) with a response type (compile-time only). An event is a
 * name with a payload type. Pure TypeScript + zod: no Node, Electron or DOM here.
 */
import type { z } from 'zod';

export interface ChannelDef<Req extends z.ZodType, Res> {
  request: Req;
  /** Phantom field: carries the response type; never read at run time. */
  response: Res;
}

/** `ch(RequestSchema).returns<Response>()` declares one channel. */
export function ch<Req extends z.ZodType>(request: Req) {
  return {
    returns<Res>(): ChannelDef<Req, Res> {
      return { request, response: undefined as unknown as Res };
    },
  };
}

export interface EventDef<P> {
  payload: P;
}

/** `ev<Payload>()` declares one event. */
export function ev<P>(): EventDef<P> {
  return { payload: undefined as unknown as P };
}

/** Errors cross every boundary as values (Signal's SQL channel pattern). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string; fields?: FieldError[] } };

/**
 * One invalid field of a request: its path (`overrides.softTrimRatio`) and a message for a
 * person ("must be at most 1"), so a form can mark the field instead of showing validator text.
 */
export interface FieldError {
  path: string;
  message: string;
}

export type ErrorCode =
  | 'bad_request'
  | 'unknown_channel'
  | 'not_found'
  | 'read_only'
  | 'forbidden'
  | 'cancelled'
  | 'conflict'
  | 'unavailable'
  | 'internal';

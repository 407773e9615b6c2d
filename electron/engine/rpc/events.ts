/** A typed in-process event bus for the contract's events; transports fan it out. */
import type { EventName, EventPayload } from '../../../shared/contract';

export type Listener<E extends EventName> = (payload: EventPayload<E>) => void;

export interface EventBus {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  on<E extends EventName>(event: E, listener: Listener<E>): () => void;
  /** Every event, for transports that forward all of them (SSE, IPC). */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
}

export function createEventBus(): EventBus {
  const byName = new Map<EventName, Set<(p: unknown) => void>>();
  const any = new Set<(e: EventName, p: unknown) => void>();
  return {
    emit(event, payload) {
      for (const l of byName.get(event) ?? []) l(payload);
      for (const l of any) l(event, payload);
    },
    on(event, listener) {
      let set = byName.get(event);
      if (!set) byName.set(event, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
    onAny(listener) {
      any.add(listener);
      return () => any.delete(listener);
    },
  };
}

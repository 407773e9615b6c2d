/** Re-export: the seed data lives in the engine (electron/engine/app/demo/), which builds the demo. */
export * from '../../electron/engine/app/demo/seed-sessions';

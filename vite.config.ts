import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is built to dist/renderer and served by `cairn serve` or loaded by Electron.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
});

// Resolve hook: `electron` → the stand-in module. Every other specifier resolves as Node does.
const standIn = new URL('./electron.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: standIn, shortCircuit: true };
  return next(specifier, context);
}

/**
 * Signals for tests that count what listens to them.
 *
 * @module
 */

/** A signal whose abort listeners are counted as they are added and removed. */
export function countedSignal(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  const signal = controller.signal;
  let count = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  const listeners = new Set<unknown>();
  signal.addEventListener = ((type: string, listener: EventListener, options?: unknown) => {
    if (type === "abort" && !listeners.has(listener)) {
      listeners.add(listener);
      count++;
    }
    add(type, listener, options as AddEventListenerOptions);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, listener: EventListener) => {
    if (type === "abort" && listeners.delete(listener)) count--;
    remove(type, listener);
  }) as typeof signal.removeEventListener;
  // Once listeners are gone after the abort ran them.
  add("abort", () => {
    listeners.clear();
    count = 0;
  });
  return { controller, listeners: () => count };
}

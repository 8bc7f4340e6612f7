// The example searches under the welcome text, offered with the demo key (the built-in database's demo).
const DEMO_EXAMPLES = ['Beverly Hills', 'Springfield', 'Paris', '10001'];

export function showDemoExamples(container: HTMLElement, onPick: (query: string) => void): void {
  container.hidden = false;
  for (const example of DEMO_EXAMPLES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'chip';
    button.textContent = example;
    button.addEventListener('click', () => onPick(example));
    container.append(button);
  }
}

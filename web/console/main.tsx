// Entry of the console's browser app (issue 8 item 5), loaded by /console and its page paths.
import { render } from 'preact';
import { ConsoleApp } from './console-app.tsx';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<ConsoleApp />, root);
}

// Entry of the console's browser app, loaded by /console and its page paths.
import { render } from 'preact';
import { ConsoleApp } from './console-app.tsx';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<ConsoleApp />, root);
}

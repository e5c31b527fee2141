// Entry of the hosted flow's browser app, loaded by /verify/flow.
import { render } from 'preact';
import { FlowApp } from './flow-app.tsx';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<FlowApp />, root);
}

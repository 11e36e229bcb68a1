/**
 * The chat panel's input: the draft, the agent's slash commands as the person types "/", images
 * pasted into it (sent with the words, shown as chips until then), the agent and model pickers,
 * Stop and Send.
 */
import * as React from 'react';
import type { ChatCommand, ModelChoice, PromptImage } from '../../common/chat-protocol.js';
import type { ChatViewProps } from './chat-view.js';

/** The agent's slash commands matching what is typed: a "/" and the start of a name, nothing after it yet. */
function matchingCommands(text: string, commands: ChatCommand[]): ChatCommand[] {
  const typed = /^\/([\w-]*)$/.exec(text);
  return typed ? commands.filter((c) => c.name.startsWith(typed[1]!)) : [];
}

/** The largest image a prompt takes (what Anthropic's API accepts per image). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** A pasted image's name: a screenshot from the clipboard is "image.png". */
const nameOf = (file: File) => file.name || `pasted.${file.type.split('/')[1] ?? 'png'}`;

export function ChatInput({ busy, models, model, agents, agent, chatAgent, activeSession, insertion, actions }: ChatViewProps) {
  const [text, setText] = React.useState('');
  // Text put in from outside (the editor's selection as an @ mention) goes at the end of the draft.
  React.useEffect(() => {
    if (insertion) setText((draft) => (draft && !/\s$/.test(draft) ? `${draft} ` : draft) + insertion.text);
  }, [insertion]);
  const [images, setImages] = React.useState<PromptImage[]>([]);
  const [notice, setNotice] = React.useState<string>();
  const commands = matchingCommands(text, (activeSession?.metadata?.commands as ChatCommand[] | undefined) ?? []);
  const send = () => {
    if (!text.trim()) return;
    actions.send(text, images);
    setText('');
    setImages([]);
    setNotice(undefined);
  };
  const onPaste = (event: React.ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.items].filter((i) => i.kind === 'file' && i.type.startsWith('image/')).map((i) => i.getAsFile()!);
    if (files.length === 0) return;
    event.preventDefault();
    const large = files.filter((f) => f.size > MAX_IMAGE_BYTES);
    setNotice(
      large.length > 0 ? `Not attached, larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB: ${large.map(nameOf).join(', ')}` : undefined,
    );
    for (const file of files.filter((f) => f.size <= MAX_IMAGE_BYTES)) {
      const reader = new FileReader();
      reader.onload = () => setImages((list) => [...list, { name: nameOf(file), mime: file.type, dataUrl: String(reader.result) }]);
      reader.readAsDataURL(file);
    }
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Tab' && commands.length > 0) {
      event.preventDefault();
      setText(`/${commands[0]!.name} `);
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };
  return (
    <div className="os-chat-input">
      {commands.length > 0 && (
        <ul className="os-chat-commands" aria-label="Commands">
          {commands.map((c) => (
            <li key={c.name}>
              <button type="button" onClick={() => setText(`/${c.name} `)} title={c.description}>
                <code>/{c.name}</code> {c.description}
                {c.hint && <span className="os-chat-command-hint"> ({c.hint})</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {images.length > 0 && (
        <ul className="os-chat-images" aria-label="Images">
          {images.map((image, i) => (
            <li key={i}>
              <img src={image.dataUrl} alt={image.name} />
              <span>{image.name}</span>
              <button
                type="button"
                aria-label={`Remove ${image.name}`}
                onClick={() => setImages((list) => list.filter((other) => other !== image))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {notice && <div className="os-chat-notice">{notice}</div>}
      <textarea
        value={text}
        rows={3}
        placeholder={`Ask ${chatAgent ?? 'OpenCode'}… (Enter to send, Shift+Enter for a new line)`}
        aria-label="Message"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="os-chat-input-row">
        {agents && agents.length > 1 && (
          <select
            className="os-chat-agent"
            aria-label="Agent"
            title="Agent"
            value={agent ?? ''}
            onChange={(e) => actions.selectAgent(e.target.value)}
          >
            {!agent && <option value="">Default agent</option>}
            {agents.map((a) => (
              <option key={a.name} value={a.name} title={a.description}>
                {a.label ?? a.name}
              </option>
            ))}
          </select>
        )}
        <ModelPicker models={models} model={model} onSelect={(m) => actions.selectModel(m)} />
        {busy && (
          <span className="os-chat-working" role="status">
            <span className="os-chat-spinner" aria-hidden="true" /> Working…
          </span>
        )}
        {busy && (
          <button type="button" onClick={() => actions.abort()} title={`Stop ${chatAgent ?? 'OpenCode'}'s answer`}>
            Stop
          </button>
        )}
        <button type="button" className="os-chat-primary" disabled={!text.trim()} onClick={send}>
          Send
        </button>
      </div>
    </div>
  );
}

interface ModelPickerProps {
  models: ModelChoice[];
  model?: { providerID: string; modelID: string };
  onSelect(model: { providerID: string; modelID: string }): void;
}

function ModelPicker({ models, model, onSelect }: ModelPickerProps) {
  // Nothing to pick (an agent over ACP chooses its own model).
  if (models.length === 0 && !model) return null;
  const value = model ? `${model.providerID}/${model.modelID}` : '';
  const listed = models.some((m) => `${m.providerID}/${m.modelID}` === value);
  const onChange = (event: React.ChangeEvent<HTMLSelectElement>) => {
    // A provider's ID has no slash; a model's may (openrouter's "anthropic/claude-…").
    const slash = event.target.value.indexOf('/');
    if (slash > 0) onSelect({ providerID: event.target.value.slice(0, slash), modelID: event.target.value.slice(slash + 1) });
  };
  return (
    <select className="os-chat-model" aria-label="Model" title="Model" value={value} onChange={onChange}>
      {!model && <option value="">Default model</option>}
      {model && !listed && <option value={value}>{value}</option>}
      {models.map((m) => (
        <option key={`${m.providerID}/${m.modelID}`} value={`${m.providerID}/${m.modelID}`}>
          {`${m.providerName} · ${m.name}`}
        </option>
      ))}
    </select>
  );
}

import './excalidraw-assets.js';
import { Excalidraw, restoreElements } from '@excalidraw/excalidraw';
import type { ExcalidrawImperativeAPI } from '@excalidraw/excalidraw/types';
import type { ExcalidrawElement } from '@excalidraw/excalidraw/element/types';
import '@excalidraw/excalidraw/index.css';
import * as React from '@theia/core/shared/react';
import { ReactWidget } from '@theia/core/lib/browser/widgets/react-widget';
import type { Message } from '@theia/core/lib/browser/widgets/widget';
import type { Camera, Disposable, WorkspacePort } from '../../../../../src/browser.js';
import { parseScene, serializeScene, type Element, type Scene, fitCamera, type Bounds } from '../../../../../src/browser.js';

/** How long a person's edits settle before they are written to the file. */
const SAVE_DELAY_MS = 250;

/** Which elements, at which versions: equal when two scenes hold the same drawing. */
const signature = (elements: readonly { id: string; version?: number; versionNonce?: number; isDeleted?: boolean }[]) =>
  elements
    .filter((e) => !e.isDeleted)
    .map((e) => `${e.id}:${e.version}:${e.versionNonce}`)
    .join('|');

/**
 * A `.whiteboard.json` board in a real Excalidraw editor. The file is the board: it loads from the
 * workspace, takes every write to the file at once (an agent's, through the same store), and writes
 * a person's edits back through the store (versioned, audited) a moment after they stop. The camera
 * is the view's own, not stored in the file.
 */
export class WhiteboardWidget extends ReactWidget {
  static readonly FACTORY_ID = 'openspace-whiteboard';
  static idFor(path: string): string {
    return `openspace:whiteboard:${path}`;
  }

  private api: ExcalidrawImperativeAPI | undefined;
  private readonly apiReady: Promise<ExcalidrawImperativeAPI>;
  private resolveApi!: (api: ExcalidrawImperativeAPI) => void;
  /** The file as last read or written: its other fields are kept when the elements are written back. */
  private scene: Scene | undefined;
  private problem: string | undefined;
  /** The drawing the file holds, to tell a person's edit from the echo of a write. */
  private fileSignature = '';
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Whether the person has acted in the board since its last save. Excalidraw also changes elements
   * on its own (text measured again once its fonts load, bindings repaired): that is not an edit, and
   * writing it back would change a file nobody touched, and race an agent's write of it.
   */
  private personActed = false;
  private saving: Promise<unknown> = Promise.resolve();
  /** What the agent last asked of the camera (see setCamera, fit). */
  private asked: { camera: Camera } | { fit: Bounds | undefined } | undefined;
  /** The scroll and zoom last set for it, to tell a person's pan from this widget's own. */
  private applied: { scrollX: number; scrollY: number; zoom: number } | undefined;
  private readonly resized = new ResizeObserver(() => void (this.asked && this.apply()));

  constructor(
    readonly path: string,
    private readonly workspace: WorkspacePort,
    onFileText: (listener: (text: string) => void) => Disposable,
  ) {
    super();
    this.id = WhiteboardWidget.idFor(path);
    this.title.label = path.split('/').pop() ?? path;
    this.title.caption = path;
    this.title.closable = true;
    this.title.iconClass = 'codicon codicon-symbol-color';
    this.addClass('openspace-whiteboard');
    this.node.tabIndex = 0;
    this.apiReady = new Promise((resolve) => (this.resolveApi = resolve));
    this.resized.observe(this.node);
    this.toDispose.push({ dispose: () => this.resized.disconnect() });
    this.toDispose.push(onFileText((text) => !this.isDisposed && this.fileChanged(text)));
    for (const type of ['pointerdown', 'pointerup', 'keydown', 'paste', 'drop']) {
      this.node.addEventListener(type, () => (this.personActed = true), { capture: true });
    }
    void this.load();
  }

  /** The camera: the scene point at the centre of the view, and the zoom. */
  camera(): Camera {
    if (!this.api) return this.asked && 'camera' in this.asked ? this.asked.camera : { x: 0, y: 0, zoom: 1 };
    const { scrollX, scrollY, zoom, width, height } = this.api.getAppState();
    return { x: width / 2 / zoom.value - scrollX, y: height / 2 / zoom.value - scrollY, zoom: zoom.value };
  }

  /** The view's size: the tab's, which Excalidraw's canvas fills. */
  viewport(): { width: number; height: number } {
    return { width: this.node.clientWidth, height: this.node.clientHeight };
  }

  /** Point the view at a camera; it holds while the tab is resized, until a person moves the view. */
  async setCamera(camera: Camera): Promise<void> {
    this.asked = { camera };
    await this.apply();
  }

  /** Show the bounds whole; they stay fitted while the tab is resized, until a person moves the view. */
  async fitTo(bounds: Bounds | undefined): Promise<void> {
    this.asked = { fit: bounds };
    await this.apply();
  }

  /**
   * Apply what the agent asked once Excalidraw has measured the tab (the camera's centre is reckoned
   * from the size Excalidraw draws at), and resolve once Excalidraw's state shows it (React applies
   * it a render later).
   */
  private async apply(): Promise<void> {
    const api = await this.apiReady;
    const asked = this.asked;
    if (!asked) return;
    const measured = () => {
      const { width, height } = api.getAppState();
      return Math.abs(width - this.node.clientWidth) <= 1 && Math.abs(height - this.node.clientHeight) <= 1;
    };
    for (let waited = 0; !measured() && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    const { width, height } = api.getAppState();
    const camera = 'fit' in asked ? fitCamera(asked.fit, { width, height }) : asked.camera;
    this.applied = { scrollX: width / 2 / camera.zoom - camera.x, scrollY: height / 2 / camera.zoom - camera.y, zoom: camera.zoom };
    api.updateScene({ appState: { scrollX: this.applied.scrollX, scrollY: this.applied.scrollY, zoom: { value: camera.zoom as never } } });
    const shows = () => {
      const now = this.camera();
      return Math.abs(now.x - camera.x) < 0.5 && Math.abs(now.y - camera.y) < 0.5 && Math.abs(now.zoom - camera.zoom) < 1e-3;
    };
    for (let waited = 0; !shows() && waited < 500; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** A person panned or zoomed: what the agent asked of the camera no longer holds. */
  private viewMoved(appState: { scrollX: number; scrollY: number; zoom: { value: number } }): void {
    const applied = this.applied;
    if (!this.asked || !applied) return;
    const moved =
      Math.abs(appState.scrollX - applied.scrollX) > 0.5 ||
      Math.abs(appState.scrollY - applied.scrollY) > 0.5 ||
      Math.abs(appState.zoom.value - applied.zoom) > 1e-3;
    if (moved) this.asked = undefined;
  }

  /** The elements Excalidraw shows now (tests read them). */
  sceneElements(): readonly ExcalidrawElement[] {
    return this.api?.getSceneElements() ?? [];
  }

  /** Resolves once a person's last edit is in the file. */
  async flushed(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.save();
    }
    await this.saving;
  }

  private async load(): Promise<void> {
    try {
      const { text } = await this.workspace.readText(this.path);
      this.scene = parseScene(text, this.path);
      this.fileSignature = signature(this.scene.elements);
    } catch (err) {
      this.problem = (err as Error).message;
    }
    this.update();
  }

  private fileChanged(text: string): void {
    let scene: Scene;
    try {
      scene = parseScene(text, this.path);
    } catch (err) {
      // Not a board any more (edited as text, say): say so, and never write over it.
      this.problem = (err as Error).message;
      this.update();
      return;
    }
    const wasBroken = this.problem !== undefined;
    this.problem = undefined;
    this.scene = scene;
    this.fileSignature = signature(scene.elements);
    if (!this.api || wasBroken) return this.update();
    if (signature(this.api.getSceneElements()) === this.fileSignature) return;
    const elements = restoreElements(scene.elements as never, null, { refreshDimensions: false, repairBindings: true });
    this.api.updateScene({ elements });
    this.fileSignature = signature(this.api.getSceneElements());
  }

  private onChange(elements: readonly ExcalidrawElement[]): void {
    if (!this.personActed || !this.scene || signature(elements) === this.fileSignature) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  private save(): void {
    this.saveTimer = undefined;
    if (!this.api || !this.scene) return;
    this.personActed = false;
    const elements = this.api.getSceneElements().map((e) => ({ ...e }) as unknown as Element);
    const scene: Scene = { ...this.scene, elements };
    this.fileSignature = signature(elements);
    this.scene = scene;
    this.saving = this.workspace
      .writeText(this.path, serializeScene(scene), { tool: 'openspace.whiteboard.edit' })
      .catch((err: Error) => console.error(`OpenSpace: saving ${this.path} failed`, err));
  }

  protected render(): React.ReactNode {
    if (this.problem) return <div className="openspace-whiteboard-problem">{`Cannot show this whiteboard: ${this.problem}`}</div>;
    if (!this.scene) return <div className="openspace-whiteboard-loading">Loading…</div>;
    const { elements, appState } = this.scene;
    return (
      <Excalidraw
        initialData={{ elements: elements as never, appState: { ...(appState as object), collaborators: new Map() } as never }}
        excalidrawAPI={(api) => {
          this.api = api;
          this.resolveApi(api);
          // A person opening a board sees its content, unless an agent has pointed the camera already.
          requestAnimationFrame(() => {
            if (!this.asked) api.scrollToContent(undefined, { fitToViewport: false });
          });
        }}
        onChange={(changed, appState) => {
          this.onChange(changed);
          this.viewMoved(appState);
        }}
        name={typeof appState.name === 'string' ? appState.name : this.title.label}
      />
    );
  }

  protected override onActivateRequest(msg: Message): void {
    super.onActivateRequest(msg);
    // Excalidraw's container takes the keys once it is mounted; until then the tab itself has the focus.
    ((this.node.querySelector('.excalidraw-container') as HTMLElement | null) ?? this.node).focus();
  }

  override dispose(): void {
    void this.flushed();
    super.dispose();
  }
}

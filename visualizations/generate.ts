/**
 * Generates one Mermaid `stateDiagram-v2` Markdown file per console machine (visualizations/<name>.md) and
 * an index (visualizations/README.md) from the machine definitions — ARCHITECTURE "Folder layout:
 * visualizations/ generated from machines/; CI regenerates them and fails when the checked-in copy is stale".
 *
 *   npx tsx visualizations/generate.ts           write the files
 *   npx tsx visualizations/generate.ts --check   regenerate in memory; exit 1 listing stale or missing files
 *
 * It walks the machine's directed graph (`toDirectedGraph` from xstate/graph): initial states, nested and parallel states, final states, every transition with
 * its event (done/error events of invoked actors and delayed transitions named readably) and guard, plus a
 * table of each state's tags, invoked actors and entry/exit actions. Output is deterministic (definition
 * order, no timestamps).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { toDirectedGraph, type DirectedGraphEdge, type DirectedGraphNode } from 'xstate/graph';
import { authMachine } from '../machines/accounts/auth.machine';
import { mailboxMachine } from '../machines/accounts/mailbox.machine';
import { mailLinkMachine } from '../machines/accounts/mailLink.machine';
import { mailRequestMachine } from '../machines/accounts/mailRequest.machine';
import { registerMachine } from '../machines/accounts/register.machine';
import { twoFactorMachine } from '../machines/accounts/twoFactor.machine';
import { twoFactorSetupMachine } from '../machines/accounts/twoFactorSetup.machine';
import { cameraGridMachine } from '../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../machines/cameras/opener.machine';
import { containerActionMachine } from '../machines/containers/containerAction.machine';
import { containerActionsMachine } from '../machines/containers/containerActions.machine';
import { containerLogsMachine } from '../machines/containers/containerLogs.machine';
import { containersMachine } from '../machines/containers/containers.machine';
import { environmentsMachine } from '../machines/containers/environments.machine';
import { devicePageMachine } from '../machines/devicePage/devicePage.machine';
import { deviceConnectionMachine } from '../machines/devices/deviceConnection.machine';
import { devicePoolMachine } from '../machines/devices/devicePool.machine';
import { devicesTableMachine } from '../machines/devices/devicesTable.machine';
import { signalMachine } from '../machines/signalling/signal.machine';
import { connectivityMachine } from '../machines/signalling/connectivity.machine';
import { streamMachine } from '../machines/cameras/stream.machine';
import { clientActionMachine } from '../machines/deviceSettings/clientAction.machine';
import { deviceSettingsMachine } from '../machines/deviceSettings/deviceSettings.machine';
import { settingsFormMachine } from '../machines/deviceSettings/settingsForm.machine';
import { logsMachine } from '../machines/logs/logs.machine';
import { logTailMachine } from '../machines/logs/logTail.machine';
import { remoteDesktopMachine } from '../machines/remoteDesktop/remoteDesktop.machine';
import { metricsMachine } from '../machines/metrics/metrics.machine';
import { metricsViewMachine } from '../machines/metrics/metricsView.machine';
import { powerMachine } from '../machines/power/power.machine';
import { powerActionMachine } from '../machines/power/powerAction.machine';
import { directoryScanMachine } from '../machines/storage/directoryScan.machine';
import { storageMachine } from '../machines/storage/storage.machine';
import { groupsMachine } from '../machines/groups/groups.machine';
import { ipCameraFormMachine } from '../machines/ipCameras/ipCameraForm.machine';
import { ipCamerasMachine } from '../machines/ipCameras/ipCameras.machine';
import { mapMachine } from '../machines/map/map.machine';
import { recordsMachine } from '../machines/records/records.machine';
import { transferMachine } from '../machines/records/transfer.machine';
import { uploadMachine } from '../machines/uploads/upload.machine';
import { uploadsMachine } from '../machines/uploads/uploads.machine';
import { downloadMachine } from '../machines/download/download.machine';
import { adminLicencesMachine } from '../machines/billing/adminLicences.machine';
import { checkoutMachine } from '../machines/billing/checkout.machine';
import { myLicencesMachine } from '../machines/billing/myLicences.machine';
import { pricingMachine } from '../machines/billing/pricing.machine';
import { contactMachine } from '../machines/public/contact.machine';
import { deviceEnginesMachine } from '../machines/engines/deviceEngines.machine';
import { deviceScoresMachine } from '../machines/engines/deviceScores.machine';
import { apiKeysMachine } from '../machines/profile/apiKeys.machine';
import { profileFormMachine } from '../machines/profile/profileForm.machine';
import { reportMachine } from '../machines/profile/profileReport.machine';
import { applicationFormMachine } from '../machines/applications/applicationForm.machine';
import { applicationsMachine } from '../machines/applications/applications.machine';
import { adminListMachine } from '../machines/admin/adminList.machine';
import { engineBackendsMachine } from '../machines/admin/engineBackends.machine';
import { userActionMachine } from '../machines/admin/userAction.machine';
import { inferenceStartMachine } from '../machines/inference/inferenceStart.machine';
import { demoAppMachine } from '../machines/demoApps/demoApp.machine';
import { demoAppsMachine } from '../machines/demoApps/demoApps.machine';
import { aiPlatformMachine } from '../machines/demoApps/aiPlatform.machine';
import { jobsMachine as inferenceJobsMachine } from '../machines/inference/jobs.machine';
import { calendarEditMachine } from '../machines/schedulers/calendarEdit.machine';
import { alarmsMachine } from '../machines/alarms/alarms.machine';
import { eventsMachine } from '../machines/events/events.machine';
import { alarmDashboardMachine } from '../machines/events/alarmDashboard.machine';
import { facesMachine } from '../machines/faces/faces.machine';
import { faceAlarmsMachine } from '../machines/faces/faceAlarms.machine';
import { calendarsMachine } from '../machines/schedulers/calendars.machine';
import { dashboardMachine as analyticsDashboardMachine } from '../machines/analytics/dashboard.machine';
import { namedListMachine as analyticsNamedListMachine } from '../machines/analytics/namedList.machine';
import { channelsMachine } from '../machines/alarmChannels/channels.machine';
import { inboxMachine } from '../machines/notifications/inbox.machine';
import { imagePushMachine } from '../machines/repositories/imagePush.machine';
import { repositoriesMachine } from '../machines/repositories/repositories.machine';
import { clientUpdateMachine } from '../machines/software/clientUpdate.machine';
import { softwareMachine } from '../machines/software/software.machine';
import { modelDetailMachine } from '../machines/models/modelDetail.machine';
import { modelListMachine } from '../machines/models/modelList.machine';
import { remoteDownloadsMachine } from '../machines/models/remoteDownloads.machine';
import { sshInstallMachine } from '../machines/sshInstall/sshInstall.machine';
import { sshInstallsMachine } from '../machines/sshInstall/sshInstalls.machine';
import { quickSearchMachine } from '../machines/search/quickSearch.machine';
import { notificationsMachine } from '../machines/notifications/notifications.machine';
import { systemMachine } from '../machines/system.machine';
import { useCasesMachine } from '../machines/useCases/useCases.machine';
import { useCaseDataMachine } from '../machines/useCases/useCaseData.machine';

/** The machines drawn, in index order: name (file stem in machines/) → machine. */
export const MACHINES: Array<{ name: string; feature: string | null; machine: AnyStateMachine }> = [
  { name: 'system', feature: null, machine: systemMachine },
  { name: 'auth', feature: 'accounts', machine: authMachine },
  { name: 'twoFactor', feature: 'accounts', machine: twoFactorMachine },
  { name: 'register', feature: 'accounts', machine: registerMachine },
  { name: 'mailRequest', feature: 'accounts', machine: mailRequestMachine },
  { name: 'mailLink', feature: 'accounts', machine: mailLinkMachine },
  { name: 'twoFactorSetup', feature: 'accounts', machine: twoFactorSetupMachine },
  { name: 'mailbox', feature: 'accounts', machine: mailboxMachine },
  { name: 'signal', feature: 'signalling', machine: signalMachine },
  { name: 'connectivity', feature: 'signalling', machine: connectivityMachine },
  { name: 'devicesTable', feature: 'devices', machine: devicesTableMachine },
  { name: 'devicePool', feature: 'devices', machine: devicePoolMachine },
  { name: 'deviceConnection', feature: 'devices', machine: deviceConnectionMachine },
  { name: 'devicePage', feature: 'devicePage', machine: devicePageMachine },
  { name: 'cameraGrid', feature: 'cameras', machine: cameraGridMachine },
  { name: 'opener', feature: 'cameras', machine: openerMachine },
  { name: 'stream', feature: 'cameras', machine: streamMachine },
  { name: 'containers', feature: 'containers', machine: containersMachine },
  { name: 'containerActions', feature: 'containers', machine: containerActionsMachine },
  { name: 'containerAction', feature: 'containers', machine: containerActionMachine },
  { name: 'containerLogs', feature: 'containers', machine: containerLogsMachine },
  { name: 'environments', feature: 'containers', machine: environmentsMachine },
  { name: 'notifications', feature: 'notifications', machine: notificationsMachine },
  { name: 'quickSearch', feature: 'search', machine: quickSearchMachine },
  { name: 'deviceSettings', feature: 'deviceSettings', machine: deviceSettingsMachine },
  { name: 'settingsForm', feature: 'deviceSettings', machine: settingsFormMachine },
  { name: 'clientAction', feature: 'deviceSettings', machine: clientActionMachine },
  { name: 'logs', feature: 'logs', machine: logsMachine },
  { name: 'logTail', feature: 'logs', machine: logTailMachine },
  { name: 'metrics', feature: 'metrics', machine: metricsMachine },
  { name: 'metricsView', feature: 'metrics', machine: metricsViewMachine },
  { name: 'power', feature: 'power', machine: powerMachine },
  { name: 'powerAction', feature: 'power', machine: powerActionMachine },
  { name: 'storage', feature: 'storage', machine: storageMachine },
  { name: 'directoryScan', feature: 'storage', machine: directoryScanMachine },
  { name: 'groups', feature: 'groups', machine: groupsMachine },
  { name: 'map', feature: 'map', machine: mapMachine },
  { name: 'ipCameras', feature: 'ipCameras', machine: ipCamerasMachine },
  { name: 'ipCameraForm', feature: 'ipCameras', machine: ipCameraFormMachine },
  { name: 'records', feature: 'records', machine: recordsMachine },
  { name: 'transfer', feature: 'records', machine: transferMachine },
  { name: 'software', feature: 'software', machine: softwareMachine },
  { name: 'clientUpdate', feature: 'software', machine: clientUpdateMachine },
  { name: 'modelList', feature: 'models', machine: modelListMachine },
  { name: 'modelDetail', feature: 'models', machine: modelDetailMachine },
  { name: 'remoteDownloads', feature: 'models', machine: remoteDownloadsMachine },
  { name: 'sshInstall', feature: 'sshInstall', machine: sshInstallMachine },
  { name: 'sshInstalls', feature: 'sshInstall', machine: sshInstallsMachine },
  { name: 'repositories', feature: 'repositories', machine: repositoriesMachine },
  { name: 'imagePush', feature: 'repositories', machine: imagePushMachine },
  { name: 'applications', feature: 'applications', machine: applicationsMachine },
  { name: 'adminList', feature: 'admin', machine: adminListMachine },
  { name: 'userAction', feature: 'admin', machine: userActionMachine },
  { name: 'engineBackends', feature: 'admin', machine: engineBackendsMachine },
  { name: 'applicationForm', feature: 'applications', machine: applicationFormMachine },
  { name: 'jobs', feature: 'inference', machine: inferenceJobsMachine },
  { name: 'inferenceStart', feature: 'inference', machine: inferenceStartMachine },
  { name: 'demoApp', feature: 'demoApps', machine: demoAppMachine },
  { name: 'demoApps', feature: 'demoApps', machine: demoAppsMachine },
  { name: 'aiPlatform', feature: 'demoApps', machine: aiPlatformMachine },
  { name: 'calendarEdit', feature: 'schedulers', machine: calendarEditMachine },
  { name: 'alarms', feature: 'alarms', machine: alarmsMachine },
  { name: 'events', feature: 'events', machine: eventsMachine },
  { name: 'alarmDashboard', feature: 'events', machine: alarmDashboardMachine },
  { name: 'faces', feature: 'faces', machine: facesMachine },
  { name: 'faceAlarms', feature: 'faces', machine: faceAlarmsMachine },
  { name: 'calendars', feature: 'schedulers', machine: calendarsMachine },
  { name: 'dashboard', feature: 'analytics', machine: analyticsDashboardMachine },
  { name: 'namedList', feature: 'analytics', machine: analyticsNamedListMachine },
  { name: 'channels', feature: 'alarmChannels', machine: channelsMachine },
  { name: 'inbox', feature: 'notifications', machine: inboxMachine },
  { name: 'download', feature: 'download', machine: downloadMachine },
  { name: 'pricing', feature: 'billing', machine: pricingMachine },
  { name: 'checkout', feature: 'billing', machine: checkoutMachine },
  { name: 'myLicences', feature: 'billing', machine: myLicencesMachine },
  { name: 'adminLicences', feature: 'billing', machine: adminLicencesMachine },
  { name: 'contact', feature: 'public', machine: contactMachine },
  { name: 'remoteDesktop', feature: 'remoteDesktop', machine: remoteDesktopMachine },
  { name: 'deviceEngines', feature: 'engines', machine: deviceEnginesMachine },
  { name: 'deviceScores', feature: 'engines', machine: deviceScoresMachine },
  { name: 'profileForm', feature: 'profile', machine: profileFormMachine },
  { name: 'apiKeys', feature: 'profile', machine: apiKeysMachine },
  { name: 'profileReport', feature: 'profile', machine: reportMachine },
  { name: 'uploads', feature: 'uploads', machine: uploadsMachine },
  { name: 'upload', feature: 'uploads', machine: uploadMachine },
  { name: 'useCases', feature: 'useCases', machine: useCasesMachine },
  { name: 'useCaseData', feature: 'useCases', machine: useCaseDataMachine },
];

/** Path of a machine's file inside machines/ (machines/<feature>/<name>.machine.ts; the root at the top). */
const machineFile = (name: string): string => {
  const feature = MACHINES.find((m) => m.name === name)?.feature;
  return feature ? `${feature}/${name}.machine.ts` : `${name}.machine.ts`;
};

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** A state node as `toDirectedGraph` (xstate/graph) gives it: the node, its child nodes and its edges. */
type Graph = DirectedGraphNode;
type Transition = DirectedGraphEdge['transition'];

/** Mermaid id of a state node: its path joined by '_' ('root' for the machine itself). */
const nodeId = (node: AnyStateNode): string => (node.path.length ? node.path.join('_') : 'root');

/** A readable name for an action, guard or actor source. */
function nameOf(thing: unknown): string {
  if (typeof thing === 'string') return thing;
  if (thing && typeof thing === 'object' && 'type' in thing) return nameOf((thing as { type: unknown }).type);
  if (typeof thing === 'function') {
    const t = (thing as { type?: unknown }).type;
    if (typeof t === 'string') return t.replace(/^xstate\./, '');
    return 'inline';
  }
  return 'inline';
}

function guardText(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard && 'type' in guard) return nameOf(guard);
  if (typeof guard === 'function') {
    const g = guard as { check?: unknown; guards?: unknown[]; type?: string };
    if (Array.isArray(g.guards)) return `${g.type ?? 'guard'}(${g.guards.map(guardText).join(', ')})`;
    return 'inline guard';
  }
  return 'guard';
}

/** Event label: `login.done`, `login.error`, `after pingTimeout`, or the event type itself. */
function eventLabel(eventType: string): string {
  let m = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (m) return `${m[1]}.done`;
  m = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (m) return `${m[1]}.error`;
  m = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (m) return `after ${m[1]}`;
  m = /^xstate\.snapshot\.(.+)$/.exec(eventType);
  if (m) return `${m[1]}.snapshot`;
  if (eventType === '') return 'always';
  return eventType;
}

/** Mermaid edge labels must avoid ':' ';' '#' and braces. */
const safeLabel = (text: string): string => text.replace(/[;#{}]/g, ' ').replace(/:/g, '꞉');

interface Edge {
  from: AnyStateNode;
  to: AnyStateNode;
  label: string;
}

/** One transition of a node with its targets, and whether it is the unguarded branch after guarded ones. */
interface Branch {
  transition: Transition;
  targets: AnyStateNode[];
  otherwise: boolean;
}

/**
 * The transitions of a graph node: its edges (one per target, grouped back per transition) and its eventless
 * (`always`) transitions, which `toDirectedGraph` does not draw.
 */
function branchesOf(graph: Graph): Branch[] {
  const byTransition = new Map<Transition, AnyStateNode[]>();
  for (const edge of graph.edges) {
    const targets = byTransition.get(edge.transition) ?? [];
    targets.push(edge.target);
    byTransition.set(edge.transition, targets);
  }
  const always = (graph.stateNode.always ?? []) as Transition[];
  for (const t of always) byTransition.set(t, t.target?.length ? [...t.target] : [graph.stateNode]);
  const out: Branch[] = [];
  const guardedBefore = new Set<string>();
  for (const [transition, targets] of byTransition) {
    // An unguarded branch after guarded ones is taken only when they all fail.
    out.push({
      transition,
      targets,
      otherwise: !transition.guard && guardedBefore.has(transition.eventType),
    });
    if (transition.guard) guardedBefore.add(transition.eventType);
  }
  return out;
}

function edgeLabel({ transition: t, otherwise }: Branch): string {
  const parts = [eventLabel(t.eventType)];
  const guard = guardText(t.guard);
  if (guard) parts.push(`[${guard}]`);
  else if (otherwise) parts.push('[else]');
  if (!t.target?.length) {
    const actions = t.actions.map(nameOf).filter((a) => a !== 'inline');
    parts.push(actions.length ? `/ ${actions.join(', ')}` : '/ (actions)');
  }
  return safeLabel(parts.join(' '));
}

/** Edges of one node; root-level transitions are drawn from each top-level state that does not override them. */
function edgesOf(graph: Graph): Edge[] {
  const edges: Edge[] = [];
  const node = graph.stateNode;
  const sources =
    node.path.length === 0 ? graph.children.filter((c) => c.stateNode.type !== 'final') : [graph];
  for (const branch of branchesOf(graph)) {
    for (const from of sources) {
      // The child handles the event itself.
      if (from !== graph && from.edges.some((e) => e.transition.eventType === branch.transition.eventType)) {
        continue;
      }
      const targets = branch.transition.target?.length ? branch.targets : [from.stateNode];
      for (const to of targets) edges.push({ from: from.stateNode, to, label: edgeLabel(branch) });
    }
  }
  return edges;
}

/** Renders the state tree as Mermaid lines. */
function renderStates(graph: Graph, indent: string, lines: string[], edges: Edge[]): void {
  const node = graph.stateNode;
  const initial = node.type === 'compound' ? node.initial?.target?.[0] : undefined;
  if (initial) lines.push(`${indent}[*] --> ${nodeId(initial)}`);
  graph.children.forEach((child, i) => {
    const id = nodeId(child.stateNode);
    if (child.children.length > 0) {
      lines.push(`${indent}state "${child.stateNode.key}" as ${id} {`);
      renderStates(child, `${indent}  `, lines, edges);
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${child.stateNode.key}" as ${id}`);
    }
    if (child.stateNode.type === 'final') lines.push(`${indent}${id} --> [*]`);
    if (node.type === 'parallel' && i < graph.children.length - 1) lines.push(`${indent}--`);
    edges.push(...edgesOf(child));
  });
}

function allNodes(graph: Graph): Graph[] {
  return [graph, ...graph.children.flatMap(allNodes)];
}

/** The first paragraph of the machine file's header comment (its spec citation). */
function headerOf(name: string): string {
  const source = readFileSync(join(root, 'machines', machineFile(name)), 'utf8');
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!m) return '';
  const text = m[1]!
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, ''))
    .join('\n')
    .trim();
  return text.split(/\n\s*\n/)[0]!.replace(/\s*\n\s*/g, ' ');
}

/** The Markdown of one machine's diagram. */
export function renderMachine(name: string, machine: AnyStateMachine): string {
  const graph = toDirectedGraph(machine);
  const rootNode = graph.stateNode;
  const lines: string[] = ['stateDiagram-v2'];
  const edges: Edge[] = [];
  if (rootNode.type === 'parallel') {
    lines.push(`  state "${machine.id}" as root {`);
    renderStates(graph, '    ', lines, edges);
    lines.push('  }');
  } else {
    renderStates(graph, '  ', lines, edges);
  }
  edges.unshift(...edgesOf(graph));
  const seen = new Set<string>();
  for (const e of edges) {
    const line = `  ${nodeId(e.from)} --> ${nodeId(e.to)} : ${e.label}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }

  const rows = allNodes(graph)
    .map((g) => g.stateNode)
    .filter((n) => n.path.length > 0)
    .map((n) => {
      const invokes = n.invoke.map((i) => `${i.id}`).join(', ');
      // raise/cancel in entry/exit are how XState schedules `after` transitions: shown as edges instead.
      const named = (actions: readonly unknown[]) =>
        actions
          .map(nameOf)
          .filter((a) => a !== 'raise' && a !== 'cancel')
          .join(', ');
      const entry = named(n.entry);
      const exit = named(n.exit);
      return `| ${n.path.join('.')} | ${n.type} | ${[...n.tags].join(', ')} | ${invokes} | ${entry} | ${exit} |`;
    });
  const rootInvokes = rootNode.invoke.map((i) => i.id).join(', ');
  const rootEntry = rootNode.entry.map(nameOf).join(', ');
  const events = [...new Set(allNodes(graph).flatMap((g) => g.edges.map((e) => e.transition.eventType)))]
    .filter((e) => !e.startsWith('xstate.'))
    .sort();

  return [
    `# ${name}`,
    '',
    `<!-- Generated by visualizations/generate.ts from machines/${machineFile(name)}. Do not edit; run \`npm run viz\`. -->`,
    '',
    headerOf(name),
    '',
    `Source: [machines/${machineFile(name)}](../machines/${machineFile(name)}) · machine id \`${machine.id}\``,
    '',
    '```mermaid',
    ...lines,
    '```',
    '',
    '## States',
    '',
    '| State | Type | Tags | Invokes | Entry | Exit |',
    '| --- | --- | --- | --- | --- | --- |',
    ...(rootInvokes || rootEntry
      ? [`| (root) | ${rootNode.type} |  | ${rootInvokes} | ${rootEntry} |  |`]
      : []),
    ...rows,
    '',
    '## Events',
    '',
    ...events.map((e) => `- \`${e}\``),
    '',
  ].join('\n');
}

/** The index page. */
export function renderIndex(): string {
  return [
    '# Console state machines',
    '',
    '<!-- Generated by visualizations/generate.ts. Do not edit; run `npm run viz`. -->',
    '',
    'One diagram per machine in `machines/`, generated from the machine definitions (ARCHITECTURE',
    '"Console state"). Regenerate with `npx tsx visualizations/generate.ts`; CI runs it with `--check` and',
    'fails when a checked-in diagram is stale.',
    '',
    '| Machine | Spec |',
    '| --- | --- |',
    ...MACHINES.map(({ name }) => `| [${name}](./${name}.md) | ${headerOf(name).split(' — ')[1] ?? ''} |`),
    '',
  ].join('\n');
}

/** Every generated file: path relative to visualizations/ → content. */
export function generateAll(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { name, machine } of MACHINES) files.set(`${name}.md`, renderMachine(name, machine));
  files.set('README.md', renderIndex());
  return files;
}

function main(): void {
  const check = process.argv.includes('--check');
  const files = generateAll();
  const stale: string[] = [];
  for (const [file, content] of files) {
    const path = join(here, file);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (current === content) continue;
    if (check) stale.push(`visualizations/${file}`);
    else writeFileSync(path, content);
  }
  if (check) {
    if (stale.length) {
      console.error(`Stale diagrams (run \`npm run viz\`):\n${stale.map((s) => `  ${s}`).join('\n')}`);
      process.exit(1);
    }
    console.log(`visualizations: ${files.size} files up to date`);
  } else {
    console.log(`visualizations: wrote ${files.size} files`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main();

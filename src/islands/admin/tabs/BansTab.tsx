/** Bans: find a member, ban or lift, the bans in force and each member's ban history. */
import { useState } from 'react';
import { resultCodeOf } from '@/lib/api-client';
import { InvalidParameter, UserNotFound } from '@/lib/result-codes';
import { fill } from '@/islands/comments/texts';
import { inForce, type BanOrder, type BansPage, type MemberBans, type Person } from '@/islands/admin/api';
import { BanDialog, BanHistoryDialog, ConfirmDialog, banUntil } from '@/islands/admin/dialogs';
import { type Shared, Pager, Name, usePaged } from '@/islands/admin/shared';

export default function BansTab({ initial, shared }: { initial: BansPage; shared: Shared }) {
	const { texts } = shared;
	const { data, go, reload } = usePaged(initial, shared.api.bans);
	const [nickname, setNickname] = useState('');
	const [found, setFound] = useState<MemberBans | null>(null);
	const [notFound, setNotFound] = useState(false);
	const [banning, setBanning] = useState<Person | null>(null);
	const [lifting, setLifting] = useState<Person | null>(null);
	const [history, setHistory] = useState<{ name: string; bans: MemberBans } | null>(null);
	const findId = 'admin-find-member';

	const find = async () => {
		setNotFound(false);
		setFound(null);
		if (!nickname.trim()) return;
		try {
			setFound(await shared.api.findMember(nickname.trim()));
		} catch (error) {
			if (resultCodeOf(error) === UserNotFound.code || resultCodeOf(error) === InvalidParameter.code) setNotFound(true);
			else
				await shared.act(
					() => Promise.reject(error),
					'',
					() => undefined,
				);
		}
	};
	const refresh = async () => {
		await reload();
		if (found) setFound(await shared.api.memberBans(found.member.userId));
	};
	const showHistory = async (person: Person) => {
		try {
			setHistory({ name: person.nickname ?? texts['common.withdrawnMember'], bans: await shared.api.memberBans(person.userId) });
		} catch (error) {
			await shared.act(
				() => Promise.reject(error),
				'',
				() => undefined,
			);
		}
	};
	const now = Date.now();
	const foundBanned = found ? found.bans.some((ban) => inForce(ban, now)) : false;

	return (
		<section className="admin-section" aria-labelledby="admin-bans-title">
			<form
				className="admin-find"
				role="search"
				onSubmit={(event) => {
					event.preventDefault();
					void find();
				}}
			>
				<div className="field">
					<label htmlFor={findId}>{texts['admin.bans.find']}</label>
					<div className="admin-find-row">
						<input
							id={findId}
							type="search"
							value={nickname}
							placeholder={texts['admin.bans.nickname']}
							maxLength={100}
							aria-describedby={notFound ? `${findId}-none` : undefined}
							onChange={(event) => setNickname(event.target.value)}
						/>
						<button className="button secondary" type="submit">
							{texts['admin.bans.search']}
						</button>
					</div>
					{notFound && (
						<p className="field-error" id={`${findId}-none`} role="status">
							{texts['admin.bans.notFound']}
						</p>
					)}
				</div>
			</form>
			{found && (
				<div className="admin-item admin-found" data-found-member={found.member.userId}>
					<p className="admin-item-head">
						<Name person={found.member} shared={shared} />
						{foundBanned && <span className="admin-badge danger">{texts['admin.bans.inForce']}</span>}
					</p>
					{found.member.admin ? (
						<p className="admin-meta">{texts['admin.ban.isAdmin']}</p>
					) : (
						<div className="admin-actions">
							<button className="button danger" type="button" disabled={shared.busy} onClick={() => setBanning(found.member)}>
								{texts['admin.action.ban']}
							</button>
							{foundBanned && (
								<button className="button secondary" type="button" disabled={shared.busy} onClick={() => setLifting(found.member)}>
									{texts['admin.action.unban']}
								</button>
							)}
							<button className="button secondary" type="button" onClick={() => setHistory({ name: found.member.nickname ?? '', bans: found })}>
								{texts['admin.action.banHistory']}
							</button>
						</div>
					)}
				</div>
			)}
			<h2 id="admin-bans-title">{texts['admin.tab.bans']}</h2>
			{data.bans.length === 0 ? (
				<p className="admin-empty">{texts['admin.bans.empty']}</p>
			) : (
				<ol className="admin-list" role="list">
					{data.bans.map((ban) => (
						<li key={ban.member.userId} className="admin-item" data-banned-member={ban.member.userId}>
							<p className="admin-item-head">
								<Name person={ban.member} shared={shared} />
								<span className="admin-badge danger">
									{ban.kind === 'PERMANENT' ? texts['admin.bans.permanent'] : banUntil(ban.endsAt ?? 0, shared.language, texts)}
								</span>
								<span className="admin-meta">{fill(texts['admin.bans.since'], { date: shared.date(ban.createdAt) })}</span>
							</p>
							{ban.reason && <p className="admin-quote">{ban.reason}</p>}
							<div className="admin-actions">
								<button className="button secondary" type="button" disabled={shared.busy} onClick={() => setLifting(ban.member)}>
									{texts['admin.action.unban']}
								</button>
								<button className="button secondary" type="button" onClick={() => void showHistory(ban.member)}>
									{texts['admin.action.banHistory']}
								</button>
							</div>
						</li>
					))}
				</ol>
			)}
			<Pager page={data.page} totalPages={data.totalPages} texts={texts} onGo={(page) => void go(page)} />
			<BanDialog
				open={banning !== null}
				name={banning?.nickname ?? ''}
				language={shared.language}
				texts={texts}
				now={Date.now}
				onClosed={(order: BanOrder | null) => {
					const member = banning;
					setBanning(null);
					if (member && order)
						void shared.act(
							() => shared.api.ban(member.userId, order),
							fill(texts['admin.done.banned'], { name: member.nickname ?? '' }),
							refresh,
							texts['admin.ban.isAdmin'],
						);
				}}
			/>
			<ConfirmDialog
				open={lifting !== null}
				title={fill(texts['admin.confirm.unban'], { name: lifting?.nickname ?? texts['common.withdrawnMember'] })}
				confirmLabel={texts['admin.action.unban']}
				texts={texts}
				onClosed={(reason) => {
					const member = lifting;
					setLifting(null);
					if (member && reason !== null) void shared.act(() => shared.api.unban(member.userId, reason), texts['admin.done.unbanned'], refresh);
				}}
			/>
			<BanHistoryDialog
				history={history?.bans ?? null}
				name={history?.name ?? ''}
				language={shared.language}
				texts={texts}
				now={Date.now}
				onClosed={() => setHistory(null)}
			/>
		</section>
	);
}

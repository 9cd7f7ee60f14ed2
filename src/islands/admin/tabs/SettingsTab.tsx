/** The community's moderation settings: the auto-hide threshold and the minimum age of a report. */
import { useState } from 'react';
import { fill } from '@/islands/comments/texts';
import { AUTO_HIDE_MAX, REPORT_MIN_AGE_MAX_HOURS, REPORT_MIN_AGE_RECOMMENDED_HOURS } from '@/schemas/moderation-limits';
import type { Settings } from '@/islands/admin/api';
import type { Shared } from '@/islands/admin/shared';

/** A whole number typed in a field, within [min, max]; null when it is not one. */
function wholeIn(text: string, min: number, max: number): number | null {
	const number = Number(text);
	return /^\d+$/.test(text) && number >= min && number <= max ? number : null;
}

export default function SettingsTab({ initial, shared }: { initial: Settings; shared: Shared }) {
	const { texts } = shared;
	const [value, setValue] = useState(initial.autoHideReports === null ? '' : String(initial.autoHideReports));
	const [age, setAge] = useState(String(initial.reportMinAgeHours));
	const [invalid, setInvalid] = useState<{ threshold: boolean; age: boolean }>({ threshold: false, age: false });
	const id = 'admin-auto-hide';
	const ageId = 'admin-report-age';
	const recommended = { hours: REPORT_MIN_AGE_RECOMMENDED_HOURS };
	const typedAge = wholeIn(age.trim(), 0, REPORT_MIN_AGE_MAX_HOURS);
	const save = async () => {
		const text = value.trim();
		const threshold = text === '' ? null : wholeIn(text, 1, AUTO_HIDE_MAX);
		const wrong = { threshold: text !== '' && threshold === null, age: typedAge === null };
		setInvalid(wrong);
		if (wrong.threshold || wrong.age) {
			document.getElementById(wrong.threshold ? id : ageId)?.focus();
			return;
		}
		await shared.act(
			() => shared.api.saveSettings({ autoHideReports: threshold, reportMinAgeHours: typedAge ?? 0 }),
			texts['admin.done.saved'],
			() => undefined,
		);
	};
	return (
		<section className="admin-section" aria-labelledby="admin-settings-title">
			<h2 id="admin-settings-title" className="visually-hidden">
				{texts['admin.tab.settings']}
			</h2>
			<form
				className="admin-settings"
				noValidate
				onSubmit={(event) => {
					event.preventDefault();
					void save();
				}}
			>
				<div className="field">
					<label htmlFor={id}>{texts['admin.settings.autoHide']}</label>
					<input
						id={id}
						type="number"
						inputMode="numeric"
						min={1}
						max={AUTO_HIDE_MAX}
						step={1}
						value={value}
						placeholder={texts['admin.settings.off']}
						aria-invalid={invalid.threshold ? 'true' : undefined}
						aria-describedby={`${id}-hint${invalid.threshold ? ` ${id}-error` : ''}`}
						onChange={(event) => {
							setValue(event.target.value);
							setInvalid((was) => ({ ...was, threshold: false }));
						}}
					/>
					<p className="field-hint" id={`${id}-hint`}>
						{texts['admin.settings.autoHideHint']}
					</p>
					{invalid.threshold && (
						<p className="field-error" id={`${id}-error`} role="alert">
							{texts['admin.settings.invalid']}
						</p>
					)}
				</div>
				<div className="field">
					<label htmlFor={ageId}>{texts['admin.settings.minAge']}</label>
					<input
						id={ageId}
						type="number"
						inputMode="numeric"
						min={0}
						max={REPORT_MIN_AGE_MAX_HOURS}
						step={1}
						value={age}
						aria-invalid={invalid.age ? 'true' : undefined}
						aria-describedby={`${ageId}-hint${typedAge !== null && typedAge < REPORT_MIN_AGE_RECOMMENDED_HOURS ? ` ${ageId}-low` : ''}${invalid.age ? ` ${ageId}-error` : ''}`}
						onChange={(event) => {
							setAge(event.target.value);
							setInvalid((was) => ({ ...was, age: false }));
						}}
					/>
					<p className="field-hint" id={`${ageId}-hint`}>
						{fill(texts['admin.settings.minAgeHint'], recommended)}
					</p>
					{typedAge !== null && typedAge < REPORT_MIN_AGE_RECOMMENDED_HOURS && (
						<p className="field-hint admin-warning" id={`${ageId}-low`} data-below-recommended>
							{fill(texts['admin.settings.belowRecommended'], recommended)}
						</p>
					)}
					{invalid.age && (
						<p className="field-error" id={`${ageId}-error`} role="alert">
							{texts['admin.settings.minAgeInvalid']}
						</p>
					)}
				</div>
				<button className="button" type="submit" disabled={shared.busy} aria-busy={shared.busy ? 'true' : undefined}>
					{texts['admin.settings.save']}
				</button>
			</form>
		</section>
	);
}

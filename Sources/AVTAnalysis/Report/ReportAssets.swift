/// The page's stylesheet and script, inlined so the report opens from disk with no network.
/// Colours come in a light and a dark set (prefers-color-scheme); each playback state has one
/// colour everywhere, joining and buffering differ in hue and lightness, errors are red, and the
/// startup waterfall's request categories use blues and greys of their own, so no request looks
/// like a state.
package enum ReportAssets {
    static let css = #"""
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1f24;--muted:#59636e;--lane:#f4f6f8;--lane2:#eaeef2;--grid:#d0d7de;--playback:#8fd19e;--pause:#f0b429;--initial-buffer:#5865d6;--rebuffer:#e4572e;--seek-buffer:#a872c4;--seek:#1f9e98;--ad-break:#f6c3dc;--ad:#c2387f;--tick:#24292f;--ping:#8c959f;--err:#d1242f;--metric:#0969da;--focus:#0969da;--bad:#d1242f;--hbar:#54aeff;--wf0:#0550ae;--wf1:#218bff;--wf2:#80ccff;--wf3:#57606a;--wf4:#8c959f;--wf5:#afb8c1}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--lane:#161b22;--lane2:#1c2330;--grid:#30363d;--playback:#2ea043;--pause:#d29922;--initial-buffer:#7d8cff;--rebuffer:#ff7b54;--seek-buffer:#c297e0;--seek:#39c5bb;--ad-break:#6e3a57;--ad:#f06fb0;--tick:#e6edf3;--ping:#6e7681;--err:#ff5c5c;--metric:#58a6ff;--focus:#58a6ff;--bad:#ff7b72;--hbar:#388bfd;--wf0:#79c0ff;--wf1:#388bfd;--wf2:#1f6feb;--wf3:#8b949e;--wf4:#6e7681;--wf5:#484f58}}
        *{box-sizing:border-box}
        body{margin:0;padding:0 24px 48px;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        h1{font-size:22px;margin:18px 0 4px}h2{font-size:19px;margin:32px 0 4px;padding-top:12px;border-top:1px solid var(--grid);word-break:break-all}h3{font-size:15px;margin:18px 0 6px}
        a{color:var(--metric)}.help,.meta,.back{color:var(--muted);margin:4px 0}
        .skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--bg);padding:4px}
        :focus-visible{outline:3px solid var(--focus);outline-offset:2px}
        svg :focus-visible{outline:none;stroke:var(--focus);stroke-width:3px}
        .headline{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}.kpi{background:var(--lane);border-radius:6px;padding:6px 12px;min-width:110px}
        .kpi{max-width:200px}.kpi dt{font-size:12px;color:var(--muted)}.kpi dd{margin:0;font-size:17px;font-weight:600;font-variant-numeric:tabular-nums}.kpi.bad dd{color:var(--bad)}.kpi dd.how{font-size:11px;font-weight:400;color:var(--muted)}
        table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:2px 10px;border-bottom:1px solid var(--grid);text-align:right}th[scope=row],td:first-child,th:first-child{text-align:left}
        .scroll{overflow-x:auto}td.name,th.name{text-align:left}details{margin:6px 0}summary{cursor:pointer;color:var(--muted)}
        .controls{display:flex;gap:6px;align-items:center;margin:4px 0}
        button{font:inherit;min-width:32px;padding:2px 10px;border:1px solid var(--grid);border-radius:6px;background:var(--lane);color:var(--fg);cursor:pointer}
        .view{color:var(--muted);margin-left:8px;font-variant-numeric:tabular-nums}
        .plot{border:1px solid var(--grid);border-radius:6px;overflow-x:auto;overflow-y:hidden;cursor:grab}
        svg{display:block;width:100%;height:auto;font-size:11px}
        svg.tl,svg.formats{min-width:\#(TimelineLayout.width)px}svg.wf{min-width:\#(WaterfallSVG.width)px}.hist svg{min-width:480px}.hist{overflow-x:auto}
        @media (max-width:600px){body{padding:0 10px 32px}.headline{display:grid;grid-template-columns:1fr 1fr}.kpi{min-width:0;max-width:none;padding:4px 8px}h1{font-size:18px}}
        svg text{fill:var(--fg)}.axis-label{fill:var(--muted)!important;text-anchor:middle}.grid{stroke:var(--grid);stroke-width:1}
        .lane-bg{fill:var(--lane)}.lane:nth-of-type(even) .lane-bg{fill:var(--lane2)}.lane-name{font-weight:600;font-size:12px}.lane-sub,.axis-unit{font-size:10px;fill:var(--muted)!important}
        .mark line{stroke-width:2;stroke:var(--fg)}.mark text{font-size:11px;font-weight:600;fill:var(--fg)}.mark.minor line{stroke-dasharray:3 2}
        .m-rebuffer line{stroke:var(--rebuffer)}.m-rebuffer text{fill:var(--rebuffer)!important}.m-seek line{stroke:var(--seek)}.m-seek text{fill:var(--seek)!important}
        .m-error line{stroke:var(--err)}.m-error text{fill:var(--err)!important}.m-ad line{stroke:var(--ad)}.m-ad text{fill:var(--ad)!important}
        .sw.mark{width:4px;height:14px;border-radius:0;background:var(--fg)}.sw.m-rebuffer{background:var(--rebuffer)}.sw.m-seek{background:var(--seek)}.sw.m-error{background:var(--err)}.sw.m-ad{background:var(--ad)}.sw.mark.minor{background:repeating-linear-gradient(var(--err) 0 3px,transparent 3px 5px)}
        .bar{stroke:none}
        .tk.ev{fill:var(--tick)}.tk.ping{fill:var(--ping);opacity:.45}.tk.err{fill:var(--err)}.tk.agg{opacity:.8}.tk.ping.agg{opacity:.35}
        .sw.tk.ev{background:var(--tick)}.sw.tk.ping{background:var(--ping);opacity:.45}.sw.tk.err{background:var(--err)}.sw.mk{background:var(--metric);border-radius:50%}
        .mk{fill:var(--metric)}.mk.agg{fill:none;stroke:var(--metric);stroke-width:2}.mk-label{fill:var(--metric)!important;font-size:10px}
        .legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 14px;padding:0;margin:6px 0;color:var(--muted)}.sw{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle;border-radius:2px}
        .details{background:var(--lane);border-radius:6px;padding:8px 12px;margin:8px 0;min-height:40px;max-height:360px;overflow:auto;font-size:12px}
        .details table td,.details table th{text-align:left;border:0;padding:1px 8px 1px 0;font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
        .hists{display:flex;flex-wrap:wrap;gap:24px}.hist{margin:0;flex:1 1 480px;max-width:560px}.hist figcaption{font-weight:600}
        .hbar{fill:var(--hbar)}.hcount{text-anchor:middle;font-size:10px}
        .wf-label{text-anchor:end}.wf-dur{fill:var(--muted)!important}.wf-bar.c0{fill:var(--wf0);background:var(--wf0)}.wf-bar.c1{fill:var(--wf1);background:var(--wf1)}
        .st{stroke:none}.st-err{fill:var(--err)}.st-play{fill:var(--playback);background:var(--playback)}.st-pause{fill:var(--pause);background:var(--pause)}.st-join{fill:var(--initial-buffer);background:var(--initial-buffer)}.st-buffer{fill:var(--rebuffer);background:var(--rebuffer)}.st-pausebuffer{fill:var(--seek-buffer);background:var(--seek-buffer)}.st-seek{fill:var(--seek);background:var(--seek)}.st-ad{fill:var(--ad);background:var(--ad)}.st-fail{fill:var(--err);background:var(--err)}.st-end,.st-idle{fill:var(--grid);background:var(--grid)}.st-suppressed{fill:var(--muted);background:var(--muted)}
        .st:focus{outline:2px solid var(--focus)}.fl{fill:none;stroke-width:2}.fl-title{font-weight:600}.fl-value{text-anchor:end;fill:var(--muted)!important}.fl-bitrate{stroke:var(--metric)}.fl-height{stroke:var(--ad)}.fl-bitrate-label{fill:var(--metric)!important}.fl-height-label{fill:var(--ad)!important}
        .wf-bar.c2{fill:var(--wf2);background:var(--wf2)}.wf-bar.c3{fill:var(--wf3);background:var(--wf3)}.wf-bar.c4{fill:var(--wf4);background:var(--wf4)}.wf-bar.c5{fill:var(--wf5);background:var(--wf5)}
        """#

    /// Zoom and pan (buttons, keys, wheel, drag) re-place bars and re-draw the axis and ticks from
    /// the section's data island, bucketing ticks with the same rule as the writer; the details
    /// panel rebuilds an event's attributes from the island's per-lane diffs.
    static let script = #"""
        (function(){'use strict';
        var G=\#(TimelineLayout.gutter),PW=\#(TimelineLayout.plotWidth),BW=\#(TimelineLayout.bucketWidth),NS='http://www.w3.org/2000/svg';
        var WR=\#(TimelineLayout.markWordRows),WY=\#(TimelineLayout.markWordRow),TT=\#(TimelineLayout.tickRow.top),TH=\#(TimelineLayout.tickRow.height),ET=\#(TimelineLayout.errorRow.top),EH=\#(TimelineLayout.errorRow.height);
        var MS={\#(ReportText.millisecondMetrics.sorted().map { "\($0):1" }.joined(separator: ","))};
        function metric(name,v){return name+' '+JSON.stringify(v)+(MS[name]&&typeof v==='number'&&v%1===0?' ms':'')}
        var STEPS=[100,200,500,1000,2000,5000,10000,15000,30000,60000,120000,300000,600000,900000,1800000,3600000,7200000,21600000,43200000,86400000];
        function pad(v,w){v=String(v);while(v.length<w)v='0'+v;return v}
        function clock(ms,withMs){var s=ms<0?'-':'';ms=Math.abs(ms);var h=Math.floor(ms/3600000),m=Math.floor(ms/60000)%60,c=Math.floor(ms/1000)%60;var t=s+(h>0?h+':'+pad(m,2):pad(m,2))+':'+pad(c,2);if(withMs!==false)t+='.'+pad(ms%1000,3);return t}
        function esc(s){return String(s).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;').replace(/"/g,'&quot;')}
        function data(sec){if(!sec._d)sec._d=JSON.parse(document.getElementById(sec.id+'-data').textContent);return sec._d}
        function cls(label){return label==='Ping'?0:label==='Error'?2:1}
        var CN=['ping','ev','err'];
        function attrs(d,i){var lane=d.records[i][1],a={};for(var j=0;j<=i;j++){var r=d.records[j];if(r[1]!==lane)continue;var f=r[3];for(var k=0;k<f.length;k+=2){if(f[k+1]===null)delete a[d.keys[f[k]]];else a[d.keys[f[k]]]=f[k+1]}}return a}
        function abs(sec,t){var s=sec.getAttribute('data-start');return s===null?'':' ('+new Date(Number(s)+t).toISOString()+')'}
        function show(sec,el){var d=data(sec),box=document.getElementById(sec.id+'-details'),h;
         if(el.hasAttribute('data-i')){var i=Number(el.getAttribute('data-i')),r=d.records[i];
          if(r[1]<0){h='<strong>metric '+esc(d.labels[r[2]])+' = '+esc(JSON.stringify(r[3]))+'</strong> at '+clock(r[0])+abs(sec,r[0])}
          else{var a=attrs(d,i),keys=Object.keys(a).sort();h='<strong>'+esc(d.labels[r[2]])+'</strong> at '+clock(r[0])+abs(sec,r[0])+' · '+esc(d.lanes[r[1]])+'<table>';
           for(var k=0;k<keys.length;k++)h+='<tr><th>'+esc(keys[k])+'</th><td>'+esc(JSON.stringify(a[keys[k]]))+'</td></tr>';h+='</table>'}}
         else if(el.hasAttribute('data-n')){var lane=Number(el.parentNode.getAttribute('data-lane')),c=el.getAttribute('data-c'),t0=Number(el.getAttribute('data-t')),t1=Number(el.getAttribute('data-e')),rows=[],n=0;
          for(var j=0;j<d.records.length;j++){var q=d.records[j];if(q[1]!==lane||q[0]<t0||q[0]>t1)continue;if(c!==null&&String(cls(d.labels[q[2]]))!==c)continue;n++;if(rows.length<200)rows.push('<tr><th>'+clock(q[0])+'</th><td>'+esc(d.labels[q[2]])+(q[1]<0?' = '+esc(JSON.stringify(q[3])):'')+'</td></tr>')}
          h='<strong>'+n+' records</strong> from '+clock(t0)+' to '+clock(t1)+(n>rows.length?' (first '+rows.length+'; zoom in for the rest)':'')+'<table>'+rows.join('')+'</table>'}
         else return;box.innerHTML=h}
        function init(sec){var svg=sec.querySelector('svg.tl'),plot=sec.querySelector('.plot'),end=Number(sec.getAttribute('data-end')),view={a:0,b:end},saved=[];
         var groups=svg.querySelectorAll('g.ticks');for(var g=0;g<groups.length;g++)saved.push(groups[g].innerHTML);var axis=svg.querySelector('g.axis'),savedAxis=axis.innerHTML;
         function X(t){return G+(t-view.a)*PW/(view.b-view.a)}
         function draw(){var full=view.a===0&&view.b===end,bars=svg.querySelectorAll('.bar');
          for(var i=0;i<bars.length;i++){var b=bars[i],x=X(Number(b.getAttribute('data-t')));b.setAttribute('x',x.toFixed(1));b.setAttribute('width',Math.max(1,X(Number(b.getAttribute('data-e')))-x).toFixed(1))}
          var lanes=svg.querySelectorAll('g.marks');for(var l=0;l<lanes.length;l++){var ms=Array.prototype.slice.call(lanes[l].querySelectorAll('g.mark')),taken=[];
           ms.forEach(function(m,i){m._x=X(Number(m.getAttribute('data-t')));m._i=i;m.setAttribute('transform','translate('+(Math.floor(m._x*10+1e-6)/10).toFixed(1)+',0)')});
           ms.sort(function(a,b){return (Number(a.getAttribute('data-p'))-Number(b.getAttribute('data-p')))||(a._i-b._i)});
           for(var r=0;r<WR;r++)taken.push([]);
           ms.forEach(function(m){var w=Number(m.getAttribute('data-w')),left=m._x+w>G+PW+4,a=left?m._x-w:m._x,b=a+w,word=m.querySelector('text'),row=-1;
            if(word._y===undefined)word._y=Number(word.getAttribute('y'))-WY*Number(word.getAttribute('data-row')||0);
            word.setAttribute('x',left?'-2':'2');if(left)word.setAttribute('text-anchor','end');else word.removeAttribute('text-anchor');
            if(m._x>=G-4&&m._x<=G+PW+4)for(var r=0;r<WR&&row<0;r++)if(!taken[r].some(function(q){return a<q[1]&&q[0]<b}))row=r;
            if(row>=0){taken[row].push([a,b]);word.removeAttribute('visibility');word.setAttribute('y',word._y+WY*row);word.setAttribute('data-row',row)}else word.setAttribute('visibility','hidden')})}
          sec.querySelector('.view').textContent='Showing '+clock(Math.round(view.a))+' to '+clock(Math.round(view.b));
          if(full){axis.innerHTML=savedAxis;for(var g=0;g<groups.length;g++)groups[g].innerHTML=saved[g];return}
          var span=view.b-view.a,step=STEPS[STEPS.length-1];for(var s=0;s<STEPS.length;s++)if(span/STEPS[s]<=10){step=STEPS[s];break}
          var ah='',H=svg.viewBox.baseVal.height;for(var t=Math.ceil(view.a/step)*step;t<=view.b;t+=step){var ax=X(t).toFixed(1);ah+='<line class="grid" x1="'+ax+'" x2="'+ax+'" y1="20" y2="'+H+'"/><text class="axis-label" x="'+ax+'" y="14">'+clock(t,step%1000!==0)+'</text>'}
          axis.innerHTML=ah;var d=data(sec),buckets={},order=[];
          for(var j=0;j<d.records.length;j++){var r=d.records[j];if(r[0]<view.a||r[0]>view.b)continue;var c=r[1]<0?1:cls(d.labels[r[2]]);var key=r[1]+':'+c+':'+Math.floor((r[0]-view.a)*PW/(span*BW));if(!buckets[key]){buckets[key]=[];order.push(key)}buckets[key].push(j)}
          var html={},labelEnd={};for(var g=0;g<groups.length;g++){html[groups[g].getAttribute('data-lane')]='';labelEnd[groups[g].getAttribute('data-lane')]=-1e9}
          for(var o=0;o<order.length;o++){var list=buckets[order[o]],first=d.records[list[0]],lane=String(first[1]),c2=order[o].split(':')[1];if(!(lane in html))continue;
           var g2=svg.querySelector('g.ticks[data-lane="'+lane+'"]'),bg=g2.closest('g.lane').querySelector('.lane-bg'),y=Number(bg.getAttribute('y')),x=X(first[0]),last=d.records[list[list.length-1]][0],name=d.labels[first[2]];
           if(first[1]<0){var lab=list.length===1?metric(name,first[3]):metric(name,first[3])+' and '+(list.length-1)+' more';
            html[lane]+='<circle class="mk'+(list.length>1?' agg':'')+'" cx="'+x.toFixed(1)+'" cy="'+(y+12)+'" r="'+(list.length>1?4:3)+'" data-t="'+first[0]+'" '+(list.length>1?'data-e="'+last+'" data-n="'+list.length+'"':'data-i="'+list[0]+'"')+' tabindex="0" aria-label="'+esc(lab+' at '+clock(first[0]))+'"><title>'+esc(lab+' at '+clock(first[0]))+'</title></circle>';
            if(x>=labelEnd[lane]&&x+lab.length*6+8<=G+PW+20){html[lane]+='<text class="mk-label" x="'+x.toFixed(1)+'" y="'+(y+32)+'" aria-hidden="true">'+esc(lab)+'</text>';labelEnd[lane]=x+lab.length*6+8}}
           else if(list.length===1){var er=c2==='2';html[lane]+='<rect class="tk '+CN[c2]+'" x="'+(x-(er?1.5:1)).toFixed(1)+'" y="'+(y+(er?ET:TT))+'" width="'+(er?3:2)+'" height="'+(er?EH:TH)+'" data-t="'+first[0]+'" data-i="'+list[0]+'" tabindex="0" aria-label="'+esc(name+' at '+clock(first[0]))+'"><title>'+esc(name+' · '+clock(first[0]))+'</title></rect>'}
           else{var lbl=list.length+' events from '+clock(first[0])+' to '+clock(last);var er2=c2==='2';html[lane]+='<rect class="tk '+CN[c2]+' agg" x="'+(x-1).toFixed(1)+'" y="'+(y+(er2?ET:TT-2))+'" width="4" height="'+(er2?EH:TH+4)+'" data-t="'+first[0]+'" data-e="'+last+'" data-n="'+list.length+'" data-c="'+c2+'" tabindex="0" aria-label="'+esc(lbl)+'"><title>'+esc(lbl)+'</title></rect>'}}
          for(var g=0;g<groups.length;g++)groups[g].innerHTML=html[groups[g].getAttribute('data-lane')]}
         function zoom(f,at){var span=view.b-view.a,ns=Math.min(end,Math.max(10,span*f));if(at===undefined)at=(view.a+view.b)/2;var a=at-(at-view.a)*ns/span;set(a,a+ns)}
         function set(a,b){var s=b-a;if(a<0){a=0;b=s}if(b>end){b=end;a=Math.max(0,end-s)}view.a=a;view.b=b;draw()}
         function pan(fr){var s=view.b-view.a;set(view.a+s*fr,view.b+s*fr)}
         function tAt(e){var r=svg.getBoundingClientRect(),vx=(e.clientX-r.left)/r.width*svg.viewBox.baseVal.width;return view.a+(vx-G)*(view.b-view.a)/PW}
         sec.querySelector('.controls').addEventListener('click',function(e){var b=e.target.closest('button');if(!b)return;var a=b.getAttribute('data-act');
          if(a==='in')zoom(0.5);else if(a==='out')zoom(2);else if(a==='left')pan(-0.25);else if(a==='right')pan(0.25);else set(0,end)});
         plot.addEventListener('keydown',function(e){var k=e.key;if(k==='+'||k==='='){zoom(0.5)}else if(k==='-'||k==='_'){zoom(2)}else if(k==='ArrowLeft'){pan(-0.1)}else if(k==='ArrowRight'){pan(0.1)}else if(k==='0'||k==='Home'){set(0,end)}else return;e.preventDefault()});
         svg.addEventListener('wheel',function(e){e.preventDefault();zoom(e.deltaY<0?0.8:1.25,tAt(e))},{passive:false});
         var drag=null;svg.addEventListener('pointerdown',function(e){if(e.button!==0)return;drag={x:tAt(e),a:view.a,b:view.b}});
         window.addEventListener('pointermove',function(e){if(!drag)return;var s=drag.b-drag.a,r=svg.getBoundingClientRect(),dt=(e.clientX-r.left)/r.width*svg.viewBox.baseVal.width;var t=drag.a+(dt-G)*s/PW;var shift=drag.x-t;if(Math.abs(shift)>0)set(drag.a+shift,drag.b+shift)});
         window.addEventListener('pointerup',function(){drag=null});
         function over(e){var el=e.target.closest&&e.target.closest('[data-i],[data-n]');if(el&&svg.contains(el))show(sec,el)}
         svg.addEventListener('mouseover',over);svg.addEventListener('focusin',over)}
        var secs=document.querySelectorAll('section.session');for(var i=0;i<secs.length;i++)init(secs[i])})();
        """#
}
